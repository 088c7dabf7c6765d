/// The first eight bytes every storage file starts with: a four-byte magic, a version byte, three zeros.
enum FileHeader {
    /// Checks the magic of the file at `path`, then that its version is one of `versions` (so a newer
    /// format is reported as such).
    static func checkMagicAndVersion(
        _ bytes: [UInt8], magic: [UInt8], versions: ClosedRange<UInt8>, path: String
    ) throws(StoreError) {
        guard bytes.count >= 8, Array(bytes[0..<4]) == magic else {
            throw .corrupt(
                path: path, offset: 0, reason: "bad magic, expected \(String(decoding: magic, as: UTF8.self))")
        }
        guard versions.contains(bytes[4]) else { throw .unsupportedFormatVersion(path: path, version: bytes[4]) }
    }
}
