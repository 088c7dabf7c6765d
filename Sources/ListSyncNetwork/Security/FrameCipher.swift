import ListSync
import ListSyncCrypto

/// Seals or opens the frames of one direction with ChaCha20-Poly1305 and a frame counter as nonce.
///
/// The nonce is 4 zero bytes then the counter (u64, little-endian); the associated data is the frame's
/// 4-byte length prefix. A dropped, reordered, replayed or altered frame fails the tag check.
struct FrameCipher {
    /// The direction's key.
    private let key: [UInt8]
    /// The counter of the next frame.
    private(set) var counter: UInt64 = 0

    /// A cipher for one direction.
    init(key: [UInt8]) { self.key = key }

    /// The nonce of frame `counter`.
    private static func nonce(_ counter: UInt64) -> [UInt8] {
        var writer = BinaryWriter()
        writer.write(contentsOf: [0, 0, 0, 0])
        writer.writeFixed64(counter)
        return writer.bytes
    }

    /// The whole frame for `body`: length prefix, ciphertext, tag.
    mutating func seal(_ body: [UInt8]) -> [UInt8] {
        let prefix = Framing.lengthPrefix(body.count + ChaChaPoly.tagByteCount)
        do {
            let sealed = try ChaChaPoly.seal(body, key: key, nonce: Self.nonce(counter), authenticating: prefix)
            counter += 1
            return prefix + sealed.ciphertext + sealed.tag
        } catch {
            // The key is 32 bytes and the nonce 12 by construction: the only failures of seal.
            preconditionFailure("ChaChaPoly.seal refused its key or nonce: \(error)")
        }
    }

    /// The body of a sealed frame, given its length prefix and the bytes after it.
    mutating func open(prefix: [UInt8], sealed: ArraySlice<UInt8>) throws(SyncError) -> [UInt8] {
        guard sealed.count >= ChaChaPoly.tagByteCount else { throw .decryptionFailed(frame: counter) }
        let split = sealed.endIndex - ChaChaPoly.tagByteCount
        do {
            let body = try ChaChaPoly.open(
                Array(sealed[..<split]), tag: Array(sealed[split...]), key: key, nonce: Self.nonce(counter),
                authenticating: prefix)
            counter += 1
            return body
        } catch {
            throw .decryptionFailed(frame: counter)
        }
    }
}
