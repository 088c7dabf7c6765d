import ListSyncCrypto

/// A short tag for a document, which a peer advertises on the LAN instead of the document's ID: only a
/// holder of the document's secret can compute it, so an outsider learns neither the ID nor which
/// advertisements are of the same document as theirs.
///
/// The tag is the first 8 bytes of HMAC-SHA256(key, "listsync discovery tag" ‖ document), where key is
/// HKDF-SHA256(secret, salt: none, info: "ListSync v1 discovery key", 32 bytes): a key of its own, apart
/// from the handshake's. Written as 16 lower-case hexadecimal digits.
struct DiscoveryTag: Hashable, Sendable, CustomStringConvertible {
    /// The bytes in a tag.
    static let byteCount = 8

    /// The tag's bytes.
    let bytes: [UInt8]

    /// The tag of `document` shared with `secret`.
    init(document: [UInt8], secret: [UInt8]) {
        let key: [UInt8]
        do {
            key = try HKDFSHA256.deriveKey(
                inputKeyMaterial: secret, salt: [], info: Array("ListSync v1 discovery key".utf8), outputByteCount: 32)
        } catch {
            // 32 bytes is far below HKDF's limit of 255 × 32, its only failure.
            preconditionFailure("HKDF refused 32 bytes: \(error)")
        }
        let code = HMACSHA256.authenticationCode(for: Array("listsync discovery tag".utf8) + document, key: key)
        bytes = Array(code.prefix(Self.byteCount))
    }

    /// The tag of the document of `settings`.
    init(settings: SyncSettings) { self.init(document: settings.document, secret: settings.secret) }

    /// The tag written as `hex`: exactly 16 hexadecimal digits (either case); nil otherwise.
    init?(hex: some Collection<UInt8>) {
        guard hex.count == 2 * Self.byteCount else { return nil }
        let digits = hex.compactMap { byte -> UInt8? in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        guard digits.count == hex.count else { return nil }
        bytes = stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }

    /// 16 lower-case hexadecimal digits.
    var description: String {
        bytes.map { byte in String(byte >> 4, radix: 16) + String(byte & 0x0F, radix: 16) }.joined()
    }
}
