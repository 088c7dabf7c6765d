import ListSync

/// The `replica` file: it marks a directory as a replica and holds the replica's identity.
///
/// Layout (20 bytes, little-endian): magic "LSRI", version 1, three zero bytes, replica ID (u64),
/// CRC-32C of the 16 bytes before it (u32).
enum IdentityFile {
    /// The file's name inside the replica directory.
    static let name = "replica"
    static let magic: [UInt8] = Array("LSRI".utf8)
    static let version: UInt8 = 1
    static let size = 20

    /// The file's bytes for `replica`.
    static func encode(_ replica: ReplicaID) -> [UInt8] {
        var bytes = magic + [version, 0, 0, 0]
        bytes.appendLittleEndian(replica.rawValue)
        bytes.appendLittleEndian(CRC32C.checksum(bytes))
        return bytes
    }

    /// The replica ID in `bytes`, read from the file at `path`.
    static func decode(_ bytes: [UInt8], path: String) throws(StoreError) -> ReplicaID {
        try FileHeader.checkMagicAndVersion(bytes, magic: magic, versions: version...version, path: path)
        var reader = LittleEndianReader(bytes, offset: 8)
        guard bytes.count == size, let replica = reader.read(UInt64.self), let crc = reader.read(UInt32.self) else {
            throw .corrupt(path: path, offset: 0, reason: "identity file is \(bytes.count) bytes, not \(size)")
        }
        guard crc == CRC32C.checksum(bytes[0..<16]) else {
            throw .corrupt(path: path, offset: 16, reason: "identity checksum mismatch")
        }
        return ReplicaID(replica)
    }
}
