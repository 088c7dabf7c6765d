/// Change sets written byte by byte, for tests of what no encoder writes.
public enum HandEncoded {
    /// A hand-written change set whose insert of row 5:1 is not in its coverage.
    public static func uncoveredInsert(covering: Bool) -> [UInt8] {
        var bytes: [UInt8] = [0x4C, 0x53, 2, 1]  // magic, version, kind: change set
        bytes += [1, 5, 0, 0, 0, 0, 0, 0, 0]  // one replica, 5, little-endian
        bytes += [1, 22] + Array("public.utf8-plain-text".utf8)  // one type
        bytes += covering ? [1, 0, 1, 0, 0] : [0]  // coverage: replica 0, one range 1...1
        // One update, then its 11 columns, each length-prefixed; each run-length column holds one literal
        // group of one value: header -1 (zigzag 1), then the value.
        bytes += [1]
        bytes += [2, 1, 0x3B]  // flags: position, value, both stamps by the insert and equal; row replica 0
        bytes += [2, 1, 2]  // row counter delta +1 (zigzag 2): row 5:1
        bytes += [2, 1, 0] + [2, 1, 1] + [1, 0x80]  // key: shares 0 bytes, suffix of 1 byte: 80
        bytes += [2, 1, 0]  // Lamport 1 = counter + 0
        bytes += [0] + [0]  // no stamp dots besides the row ID
        bytes += [2, 1, 0] + [2, 1, 1] + [1, UInt8(ascii: "x")]  // value: type 0, 1 byte, "x"
        return bytes
    }
}
