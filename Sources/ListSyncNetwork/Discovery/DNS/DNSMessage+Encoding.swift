extension DNSMessage {
    /// The message as a packet, its names compressed (RFC 6762 section 18.14): owner names, PTR targets
    /// and SRV targets; an NSEC's next name is written in full (RFC 4034 section 4.1.1).
    /// - Throws: ``DNSEncodingError`` for a class above 0x7FFF, a TXT string or record data too long, or
    ///   a message of more than 9000 bytes.
    /// - Complexity: O(*n*) in the bytes written (times the labels of a name, for its suffixes).
    func encoded() throws(DNSEncodingError) -> [UInt8] {
        var writer = DNSWriter()
        writer.uint16(id)
        writer.uint16(flags)
        let sections = [answers, authorities, additionals]
        let counts = [questions.count] + sections.map(\.count)
        // More entries than a packet has bytes cannot fit; checked first, so each count fits its 16 bits.
        guard counts.allSatisfy({ $0 <= Self.maximumByteCount }) else {
            throw .messageTooLarge(limit: Self.maximumByteCount)
        }
        for count in counts { writer.uint16(UInt16(count)) }
        for question in questions {
            writer.name(question.name, compress: true)
            writer.uint16(question.type.rawValue)
            writer.uint16(try Self.wireClass(question.recordClass, topBit: question.unicastResponse))
            try Self.checkSize(writer)
        }
        for record in sections.joined() {
            try writer.record(record)
            try Self.checkSize(writer)
        }
        return writer.bytes
    }

    /// `recordClass` with the unicast-response or cache-flush bit.
    static func wireClass(_ recordClass: UInt16, topBit: Bool) throws(DNSEncodingError) -> UInt16 {
        guard recordClass <= 0x7FFF else { throw .classOutOfRange(recordClass: recordClass) }
        return recordClass | (topBit ? 0x8000 : 0)
    }

    /// Fails once the packet is larger than a receiver accepts, so a huge message stops growing early.
    private static func checkSize(_ writer: DNSWriter) throws(DNSEncodingError) {
        guard writer.bytes.count <= maximumByteCount else { throw .messageTooLarge(limit: maximumByteCount) }
    }
}

extension DNSWriter {
    /// Appends a resource record, its data length patched in once the data is written.
    mutating func record(_ record: DNSResourceRecord) throws(DNSEncodingError) {
        name(record.name, compress: true)
        uint16(record.type.rawValue)
        uint16(try DNSMessage.wireClass(record.recordClass, topBit: record.cacheFlush))
        uint32(record.ttl)
        let lengthOffset = bytes.count
        uint16(0)
        try recordData(record.data)
        let length = bytes.count - lengthOffset - 2
        guard length <= Int(UInt16.max) else { throw .recordDataTooLong(byteCount: length) }
        patch(UInt16(length), at: lengthOffset)
    }

    /// Appends record data.
    private mutating func recordData(_ data: DNSRecordData) throws(DNSEncodingError) {
        switch data {
        case .a(let address):
            append(address.bytes)
        case .aaaa(let address):
            append(address.bytes)
        case .ptr(let target):
            name(target, compress: true)
        case .srv(let priority, let weight, let port, let target):
            uint16(priority)
            uint16(weight)
            uint16(port)
            name(target, compress: true)
        case .txt(let strings):
            for string in strings {
                guard string.count <= 255 else { throw .textStringTooLong(byteCount: string.count) }
                uint8(UInt8(string.count))
                append(string)
            }
        case .nsec(let next, let types):
            name(next, compress: false)
            typeBitmaps(types)
        case .opaque(_, let raw):
            append(raw)
        }
    }

    /// Appends NSEC type bitmap blocks: one per 256-type window used, in order, each as short as its
    /// highest type allows (RFC 4034 section 4.1.2).
    private mutating func typeBitmaps(_ types: Set<DNSRecordType>) {
        let byWindow = Dictionary(grouping: types.map(\.rawValue)) { $0 >> 8 }
        for window in byWindow.keys.sorted() {
            let lows = byWindow[window, default: []].map { Int($0 & 0xFF) }
            var bitmap = [UInt8](repeating: 0, count: (lows.max() ?? 0) / 8 + 1)
            for low in lows { bitmap[low / 8] |= 0x80 >> (low % 8) }
            uint8(UInt8(window))
            uint8(UInt8(bitmap.count))
            append(bitmap)
        }
    }
}
