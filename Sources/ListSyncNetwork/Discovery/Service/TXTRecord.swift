/// The key/value pairs of a DNS-SD TXT record (RFC 6763 section 6): each a character string `key=value`,
/// `key=` (an empty value) or `key` (a boolean attribute, no value).
struct TXTRecord: Hashable, Sendable {
    /// One attribute.
    struct Entry: Hashable, Sendable {
        /// The key: 1 or more printable US-ASCII characters but `=`, compared without regard to case.
        var key: String
        /// The value (any bytes), or nil for a key given without `=`.
        var value: [UInt8]?
    }

    /// The attributes, in order, with distinct keys.
    let entries: [Entry]

    /// A record of `entries`.
    /// - Throws: ``TXTRecordError`` for an invalid or repeated key, or a pair over 255 bytes.
    init(_ entries: [Entry]) throws(TXTRecordError) {
        var seen: Set<String> = []
        for entry in entries {
            guard !entry.key.isEmpty, entry.key.utf8.allSatisfy(Self.isKeyByte) else { throw .invalidKey(entry.key) }
            guard seen.insert(Self.folded(entry.key)).inserted else { throw .duplicateKey(entry.key) }
            let byteCount = Self.string(of: entry).count
            guard byteCount <= 255 else { throw .entryTooLong(key: entry.key, byteCount: byteCount) }
        }
        self.entries = entries
    }

    /// The attributes in the character strings of a received TXT record, read as RFC 6763 section 6.4
    /// says: an empty string, a string starting with `=` or one whose key has a byte that is not
    /// printable US-ASCII is ignored, and of a key given twice only the first counts.
    init(strings: [[UInt8]]) {
        var seen: Set<String> = []
        var entries: [Entry] = []
        for string in strings {
            let equals = string.firstIndex(of: UInt8(ascii: "="))
            let keyBytes = string[..<(equals ?? string.endIndex)]
            guard !keyBytes.isEmpty, keyBytes.allSatisfy(Self.isKeyByte) else { continue }
            let key = String(decoding: keyBytes, as: UTF8.self)
            guard seen.insert(Self.folded(key)).inserted else { continue }
            entries.append(Entry(key: key, value: equals.map { Array(string[($0 + 1)...]) }))
        }
        self.entries = entries
    }

    /// The character strings of the record; a record with no attributes is one empty string, as RFC 6763
    /// section 6.1 requires.
    var strings: [[UInt8]] { entries.isEmpty ? [[]] : entries.map(Self.string) }

    /// The attribute with `key`, compared without regard to case.
    func entry(forKey key: String) -> Entry? {
        let folded = Self.folded(key)
        return entries.first { Self.folded($0.key) == folded }
    }

    /// Whether `byte` may be in a key.
    private static func isKeyByte(_ byte: UInt8) -> Bool { (0x20...0x7E).contains(byte) && byte != UInt8(ascii: "=") }

    /// `key` with ASCII upper case folded to lower case.
    private static func folded(_ key: String) -> String {
        String(decoding: key.utf8.map(DNSName.folded), as: UTF8.self)
    }

    /// The character string of `entry`.
    private static func string(of entry: Entry) -> [UInt8] {
        Array(entry.key.utf8) + (entry.value.map { [UInt8(ascii: "=")] + $0 } ?? [])
    }
}
