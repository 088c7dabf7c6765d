extension DNSMessage {
    /// Decodes `packet`, which must hold exactly one message of at most 9000 bytes.
    ///
    /// The header's counts are not trusted: each entry is read from the bytes that are there, so a count
    /// beyond what the packet holds fails at the first missing entry, with no space reserved for it.
    /// - Throws: ``DNSDecodingError``, naming what was wrong and its byte offset.
    /// - Complexity: O(*n*) in the packet's bytes.
    init(decoding packet: [UInt8]) throws(DNSDecodingError) {
        guard packet.count <= Self.maximumByteCount else {
            throw .packetTooLarge(byteCount: packet.count, limit: Self.maximumByteCount)
        }
        var reader = DNSReader(packet: packet)
        id = try reader.uint16()
        flags = try reader.uint16()
        let questionCount = try reader.uint16()
        let answerCount = try reader.uint16()
        let authorityCount = try reader.uint16()
        let additionalCount = try reader.uint16()
        questions = []
        for _ in 0..<questionCount { questions.append(try reader.question()) }
        answers = try reader.records(count: answerCount)
        authorities = try reader.records(count: authorityCount)
        additionals = try reader.records(count: additionalCount)
        guard reader.offset == packet.count else { throw .trailingBytes(offset: reader.offset) }
    }
}

extension DNSReader {
    /// Reads a question.
    mutating func question() throws(DNSDecodingError) -> DNSQuestion {
        let name = try name()
        let type = DNSRecordType(rawValue: try uint16())
        let rawClass = try uint16()
        return DNSQuestion(name: name, type: type, recordClass: rawClass & 0x7FFF, unicastResponse: rawClass >> 15 == 1)
    }

    /// Reads `count` resource records.
    mutating func records(count: UInt16) throws(DNSDecodingError) -> [DNSResourceRecord] {
        var records: [DNSResourceRecord] = []
        for _ in 0..<count { records.append(try record()) }
        return records
    }

    /// Reads a resource record.
    mutating func record() throws(DNSDecodingError) -> DNSResourceRecord {
        let name = try name()
        let type = DNSRecordType(rawValue: try uint16())
        let rawClass = try uint16()
        let ttl = try uint32()
        let length = Int(try uint16())
        let data = try region(of: length) { reader throws(DNSDecodingError) in
            try reader.recordData(type: type, length: length)
        }
        return DNSResourceRecord(
            name: name, recordClass: rawClass & 0x7FFF, cacheFlush: rawClass >> 15 == 1, ttl: ttl, data: data)
    }

    /// Reads the data of a record of `type`, `length` bytes (the current region).
    private mutating func recordData(type: DNSRecordType, length: Int) throws(DNSDecodingError) -> DNSRecordData {
        let start = offset
        switch type {
        case .a:
            guard let address = IPv4Address(bytes: try bytes(length)) else {
                throw .addressLength(offset: start, type: type, byteCount: length)
            }
            return .a(address)
        case .aaaa:
            guard let address = IPv6Address(bytes: try bytes(length)) else {
                throw .addressLength(offset: start, type: type, byteCount: length)
            }
            return .aaaa(address)
        case .ptr:
            return .ptr(try name())
        case .srv:
            return .srv(priority: try uint16(), weight: try uint16(), port: try uint16(), target: try name())
        case .txt:
            var strings: [[UInt8]] = []
            while offset < limit { strings.append(Array(try bytes(Int(try uint8())))) }
            return .txt(strings)
        case .nsec:
            return .nsec(next: try name(), types: try typeBitmaps())
        default:
            return .opaque(type: type, bytes: Array(try bytes(length)))
        }
    }

    /// Reads NSEC type bitmap blocks to the end of the region (RFC 4034 section 4.1.2).
    private mutating func typeBitmaps() throws(DNSDecodingError) -> Set<DNSRecordType> {
        var types: Set<DNSRecordType> = []
        var previousWindow: Int?
        while offset < limit {
            let blockStart = offset
            let window = Int(try uint8())
            let length = Int(try uint8())
            guard (1...32).contains(length), window > previousWindow ?? -1 else {
                throw .typeBitmap(offset: blockStart)
            }
            previousWindow = window
            for (index, byte) in try bytes(length).enumerated() {
                for bit in 0..<8 where byte & (0x80 >> bit) != 0 {
                    types.insert(DNSRecordType(rawValue: UInt16(window << 8 | index << 3 | bit)))
                }
            }
        }
        return types
    }
}
