/// Reads the fields of one packet, bounds-checked: every failure is a ``DNSDecodingError`` naming the
/// offset at fault.
struct DNSReader {
    /// The most compression pointers one name may follow: as many as a name can have labels, for a
    /// compressor follows at most one per label.
    static let maximumPointerCount = 127

    /// The packet.
    let packet: [UInt8]
    /// The offset of the next byte to read.
    private(set) var offset = 0
    /// Where the region being read ends: the packet's end, or the end of the record data being read.
    private(set) var limit: Int

    /// A reader at the start of `packet`.
    init(packet: [UInt8]) {
        self.packet = packet
        limit = packet.count
    }

    /// Reads `count` bytes.
    mutating func bytes(_ count: Int) throws(DNSDecodingError) -> ArraySlice<UInt8> {
        guard count <= limit - offset else { throw .truncated(offset: offset) }
        defer { offset += count }
        return packet[offset..<offset + count]
    }

    /// Reads one byte.
    mutating func uint8() throws(DNSDecodingError) -> UInt8 { try bytes(1).first ?? 0 }

    /// Reads a big-endian 16-bit field.
    mutating func uint16() throws(DNSDecodingError) -> UInt16 {
        try bytes(2).reduce(0) { $0 << 8 | UInt16($1) }
    }

    /// Reads a big-endian 32-bit field.
    mutating func uint32() throws(DNSDecodingError) -> UInt32 {
        try bytes(4).reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// Runs `body` with reads limited to the next `count` bytes (a record's data), then checks that it
    /// read all of them.
    mutating func region<Value>(
        of count: Int, _ body: (inout DNSReader) throws(DNSDecodingError) -> Value
    ) throws(DNSDecodingError) -> Value {
        guard count <= limit - offset else { throw .truncated(offset: offset) }
        let start = offset
        let outer = limit
        limit = start + count
        let value = try body(&self)
        guard offset == limit else { throw .recordDataLength(offset: start, declared: count, used: offset - start) }
        limit = outer
        return value
    }

    /// Reads a name, following compression pointers (RFC 1035 section 4.1.4).
    ///
    /// The labels in place lie within the current region; those a pointer leads to, anywhere in the packet
    /// after the header. A pointer must point strictly before the first byte of the labels it ends (the
    /// name's start, or the last pointer's target), so every jump goes backwards and no loop is possible;
    /// the jumps are also counted, and the name's length checked as it grows.
    /// - Complexity: O(*n*) in the bytes of the name, at most 255 plus 2 per pointer followed.
    mutating func name() throws(DNSDecodingError) -> DNSName {
        let start = offset
        var labels: [[UInt8]] = []
        var byteCount = 1
        var position = offset
        var segmentStart = offset
        var segmentEnd = limit
        var pointers = 0
        var resume: Int?
        while true {
            guard position < segmentEnd else { throw .truncated(offset: position) }
            let length = packet[position]
            switch length >> 6 {
            case 0 where length == 0:
                offset = resume ?? position + 1
                return DNSName(validated: labels)
            case 0:
                let labelEnd = position + 1 + Int(length)
                guard labelEnd <= segmentEnd else { throw .truncated(offset: position) }
                byteCount += 1 + Int(length)
                guard byteCount <= DNSName.maximumByteCount else { throw .nameTooLong(offset: start) }
                labels.append(Array(packet[position + 1..<labelEnd]))
                position = labelEnd
            case 3:
                guard position + 2 <= segmentEnd else { throw .truncated(offset: position) }
                let target = Int(length & 0x3F) << 8 | Int(packet[position + 1])
                guard target >= DNSMessage.headerByteCount, target < segmentStart else {
                    throw .pointerNotBackward(offset: position, target: target)
                }
                pointers += 1
                guard pointers <= Self.maximumPointerCount else { throw .tooManyPointers(offset: start) }
                resume = resume ?? position + 2
                position = target
                segmentStart = target
                segmentEnd = packet.count
            default:
                throw .reservedLabelType(offset: position, byte: length)
            }
        }
    }
}
