import ListSync

/// The `snapshot` file: the list's state as of the start of log segment ``Contents/firstSegment``.
///
/// Layout (little-endian): a 48-byte header, then the payload (the list's `snapshot()` bytes).
/// Header: magic "LSSN", version 1, three zero bytes, replica ID (u64), first log segment not covered
/// (u64), highest operation counter reserved (u64), payload length (u64), payload CRC-32C (u32), CRC-32C
/// of the 44 header bytes before it (u32).
enum SnapshotFile {
    /// The file's name inside the replica directory.
    static let name = "snapshot"
    static let magic: [UInt8] = Array("LSSN".utf8)
    static let version: UInt8 = 1
    static let headerSize = 48

    /// What a snapshot file holds.
    struct Contents {
        /// The replica the snapshot belongs to.
        var replica: ReplicaID
        /// The first log segment whose records the snapshot does not include.
        var firstSegment: UInt64
        /// Every operation counter of this replica up to this one may have been handed out.
        var reservedThrough: UInt64
        /// The list's `snapshot()` bytes.
        var payload: [UInt8]
    }

    /// The file's bytes.
    static func encode(_ contents: Contents) -> [UInt8] {
        var bytes = magic + [version, 0, 0, 0]
        bytes.reserveCapacity(headerSize + contents.payload.count)
        bytes.appendLittleEndian(contents.replica.rawValue)
        bytes.appendLittleEndian(contents.firstSegment)
        bytes.appendLittleEndian(contents.reservedThrough)
        bytes.appendLittleEndian(UInt64(contents.payload.count))
        bytes.appendLittleEndian(CRC32C.checksum(contents.payload))
        bytes.appendLittleEndian(CRC32C.checksum(bytes))
        bytes.append(contentsOf: contents.payload)
        return bytes
    }

    /// The contents of `bytes`, read from the file at `path`.
    /// The header is cut off `bytes` in place (no copy of the payload when `bytes` is not shared).
    static func decode(_ bytes: consuming [UInt8], path: String) throws(StoreError) -> Contents {
        try FileHeader.checkMagicAndVersion(bytes, magic: magic, versions: version...version, path: path)
        // The header is read from a copy of its own, so that `bytes` stays the payload's only reference.
        let header = Array(bytes[..<min(headerSize, bytes.count)])
        var reader = LittleEndianReader(header, offset: 8)
        guard let replica = reader.read(UInt64.self), let firstSegment = reader.read(UInt64.self),
            let reservedThrough = reader.read(UInt64.self), let length = reader.read(UInt64.self),
            let payloadCRC = reader.read(UInt32.self), let headerCRC = reader.read(UInt32.self)
        else { throw .corrupt(path: path, offset: bytes.count, reason: "snapshot header truncated") }
        guard headerCRC == CRC32C.checksum(header[0..<(headerSize - 4)]) else {
            throw .corrupt(path: path, offset: 0, reason: "snapshot header checksum mismatch")
        }
        let payloadSize = bytes.count - headerSize
        guard length == UInt64(payloadSize) else {
            throw .corrupt(
                path: path, offset: headerSize, reason: "payload is \(payloadSize) bytes, header says \(length)")
        }
        var payload = consume bytes
        payload.removeSubrange(..<headerSize)
        guard payloadCRC == CRC32C.checksum(payload) else {
            throw .corrupt(path: path, offset: headerSize, reason: "snapshot payload checksum mismatch")
        }
        return Contents(
            replica: ReplicaID(replica), firstSegment: firstSegment, reservedThrough: reservedThrough, payload: payload)
    }
}
