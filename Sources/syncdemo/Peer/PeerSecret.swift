import Foundation

/// The document secret of `syncdemo peer`: read from `--secret-file`, or the built-in demo secret.
enum PeerSecret {
    /// The fewest bytes a secret may have (the network layer's minimum).
    static let minimumByteCount = 16
    /// The most bytes a secret file may hold (blanks included): more is not a secret file.
    static let maximumByteCount = 4096

    /// The secret every peer started without `--secret-file` shares: public, so for local experiments only.
    static let demo = Array("listsync-demo-secret-known-to-everyone".utf8)

    /// How to make a good secret file, for error messages and the warning.
    static let howToCreate = "create one with: head -c 32 /dev/urandom | base64 > secret"

    /// The warning printed when a peer runs on the demo secret.
    static let demoWarning =
        "warning: no --secret-file given; using the built-in demo secret, which everyone knows. "
        + "It is for local experiments only: \(howToCreate), then pass --secret-file secret to every peer."

    /// The bytes of the file at `path` with surrounding blanks and newlines trimmed (text or binary).
    /// - Throws: ``CommandFailure`` when the file cannot be read or holds fewer than 16 or more than 4,096 bytes.
    static func read(path: String) throws(CommandFailure) -> [UInt8] {
        var isDirectory: ObjCBool = false
        let reason: String? =
            if !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
                "no such file"
            } else if isDirectory.boolValue {
                "it is a directory"
            } else if !FileManager.default.isReadableFile(atPath: path) {
                "permission denied"
            } else {
                nil
            }
        // Read at most one byte more than a secret may hold: a huge or endless file (/dev/zero) is refused.
        guard reason == nil, let data = FileReading.prefix(maximumByteCount + 1, ofFileAt: path) else {
            throw CommandFailure(
                "cannot read the secret file '\(path)' (\(reason ?? "read failed")); \(howToCreate)")
        }
        guard data.count <= maximumByteCount else {
            throw CommandFailure(
                "the secret file '\(path)' is larger than \(maximumByteCount.formatted()) bytes; a secret holds "
                    + "\(minimumByteCount) to \(maximumByteCount.formatted()) bytes: \(howToCreate)")
        }
        let blanks: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        let secret = Array(data.drop { blanks.contains($0) }.reversed().drop { blanks.contains($0) }.reversed())
        guard secret.count >= minimumByteCount else {
            throw CommandFailure(
                "the secret file '\(path)' holds \(secret.count) bytes; a secret needs at least "
                    + "\(minimumByteCount): \(howToCreate)")
        }
        return secret
    }
}
