/// The top-level members of JSON objects: split from bytes with full validation, joined canonically.
///
/// Field registers (docs/field-registers.md) need a field's value as the exact bytes it was written
/// with, which Foundation's `JSONSerialization` does not keep. The splitter validates the whole text by
/// RFC 8259 and returns each top-level member's decoded name and the raw bytes of its value (its
/// *fragment*). It never traps or loops: its work is linear in the input's length and its nesting is
/// bounded by ``maximumDepth``.
enum JSONFields {
    /// The deepest nesting of arrays and objects accepted, the top-level object included.
    static let maximumDepth = 512

    /// A top-level member of an object: its name, decoded, and its value's JSON text.
    struct Member: Hashable {
        /// The member's name as a string (escapes decoded).
        var name: String
        /// The member's value as JSON text, without surrounding white space.
        var fragment: ArraySlice<UInt8>
    }

    /// The members of the JSON object `bytes`, in their order there; nil when `bytes` is not exactly one
    /// valid JSON object (white space around it allowed), or names a member twice.
    /// - Complexity: O(n) for n bytes.
    static func split(_ bytes: ArraySlice<UInt8>) -> [Member]? {
        var scanner = JSONScanner(bytes)
        scanner.skipWhitespace()
        guard scanner.peek() == UInt8(ascii: "{") else { return nil }
        var members: [Member]? = []
        guard scanner.scanObject(depth: 1, members: &members), scanner.isAtEndAfterWhitespace(),
            let members
        else { return nil }
        if members.count > smallObject {
            var names = Set<String>()
            for member in members where !names.insert(member.name).inserted { return nil }
        } else {
            for index in members.indices where members[..<index].contains(where: { $0.name == members[index].name }) {
                return nil
            }
        }
        return members
    }

    /// The most members an object may have for its members to be compared pairwise rather than hashed:
    /// a struct's fields are few, and comparing a few short names is faster than hashing them.
    static let smallObject = 16

    /// Whether `bytes` is exactly one valid JSON value of any kind (white space around it allowed).
    /// - Complexity: O(n) for n bytes.
    static func isValidValue(_ bytes: ArraySlice<UInt8>) -> Bool {
        var scanner = JSONScanner(bytes)
        scanner.skipWhitespace()
        return scanner.scanValue(depth: 1) && scanner.isAtEndAfterWhitespace()
    }

    /// Whether `bytes` is one valid JSON value with no white space around it: a field value as stored.
    /// - Complexity: O(n) for n bytes.
    static func isFragment(_ bytes: ArraySlice<UInt8>) -> Bool {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        guard let first = bytes.first, let last = bytes.last, !isSpace(first), !isSpace(last) else { return false }
        return isValidValue(bytes)
    }

    /// The JSON object of `members`: sorted by the UTF-8 bytes of their names, names escaped canonically
    /// (``appendName(_:to:)``), fragments as they are, no white space.
    ///
    /// - Precondition: names are distinct and every fragment is one valid JSON value.
    /// - Complexity: O(n + k log k) for n bytes and k members.
    static func join(_ members: [Member]) -> [UInt8] {
        let sorted = members.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        for (offset, member) in sorted.enumerated() {
            if offset > 0 { bytes.append(UInt8(ascii: ",")) }
            appendName(member.name, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            bytes.append(contentsOf: member.fragment)
        }
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    /// Appends `name` as a JSON string: `"` and `\` escaped, control characters as `\b \f \n \r \t` or
    /// `\u00XX` (lowercase hex), every other character as its UTF-8 bytes.
    static func appendName(_ name: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), byte]
            case 0x08: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case ..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

/// A validating reader of JSON text (RFC 8259), one pass, recursion bounded by
/// ``JSONFields/maximumDepth``.
private struct JSONScanner {
    private let bytes: ArraySlice<UInt8>
    private var index: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        index = bytes.startIndex
    }

    /// The next byte, or nil at the end.
    func peek() -> UInt8? { index < bytes.endIndex ? bytes[index] : nil }

    /// Skips spaces, tabs, line feeds and carriage returns.
    mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    /// Whether only white space is left.
    mutating func isAtEndAfterWhitespace() -> Bool {
        skipWhitespace()
        return index == bytes.endIndex
    }

    /// Consumes `byte` if it comes next.
    private mutating func consume(_ byte: UInt8) -> Bool {
        guard peek() == byte else { return false }
        index += 1
        return true
    }

    /// Reads one value at nesting `depth` (the depth an array or object it opens would have).
    mutating func scanValue(depth: Int) -> Bool {
        guard let byte = peek() else { return false }
        switch byte {
        case UInt8(ascii: "{"):
            var ignored: [JSONFields.Member]?
            return scanObject(depth: depth, members: &ignored)
        case UInt8(ascii: "["): return scanArray(depth: depth)
        case UInt8(ascii: "\""):
            var ignored: [UInt8]?
            return scanString(decodingInto: &ignored)
        case UInt8(ascii: "t"): return scanLiteral("true")
        case UInt8(ascii: "f"): return scanLiteral("false")
        case UInt8(ascii: "n"): return scanLiteral("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return scanNumber()
        default: return false
        }
    }

    /// Reads an object at nesting `depth`, appending its members to `members` when that is not nil.
    mutating func scanObject(depth: Int, members: inout [JSONFields.Member]?) -> Bool {
        guard depth <= JSONFields.maximumDepth, consume(UInt8(ascii: "{")) else { return false }
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return true }
        while true {
            var name: [UInt8]? = members == nil ? nil : []
            guard peek() == UInt8(ascii: "\""), scanString(decodingInto: &name) else { return false }
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else { return false }
            skipWhitespace()
            let start = index
            guard scanValue(depth: depth + 1) else { return false }
            if let name {
                members?.append(
                    JSONFields.Member(name: String(decoding: name, as: UTF8.self), fragment: bytes[start..<index]))
            }
            skipWhitespace()
            if consume(UInt8(ascii: "}")) { return true }
            guard consume(UInt8(ascii: ",")) else { return false }
            skipWhitespace()
        }
    }

    private mutating func scanArray(depth: Int) -> Bool {
        guard depth <= JSONFields.maximumDepth, consume(UInt8(ascii: "[")) else { return false }
        skipWhitespace()
        if consume(UInt8(ascii: "]")) { return true }
        while true {
            guard scanValue(depth: depth + 1) else { return false }
            skipWhitespace()
            if consume(UInt8(ascii: "]")) { return true }
            guard consume(UInt8(ascii: ",")) else { return false }
            skipWhitespace()
        }
    }

    private mutating func scanLiteral(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.endIndex - index >= count else { return false }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] { return false }
        index += count
        return true
    }

    /// Reads `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func scanNumber() -> Bool {
        _ = consume(UInt8(ascii: "-"))
        if !consume(UInt8(ascii: "0")) {
            guard let first = peek(), (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(first) else { return false }
            skipDigits()
        }
        if consume(UInt8(ascii: ".")) {
            guard skipDigits() else { return false }
        }
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            guard skipDigits() else { return false }
        }
        return true
    }

    /// Skips digits; returns whether there was at least one.
    @discardableResult
    private mutating func skipDigits() -> Bool {
        let start = index
        while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
        return index > start
    }

    /// Reads a string, appending its decoded UTF-8 to `decoded` when that is not nil.
    mutating func scanString(decodingInto decoded: inout [UInt8]?) -> Bool {
        guard consume(UInt8(ascii: "\"")) else { return false }
        while let byte = peek() {
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return true
            case UInt8(ascii: "\\"):
                index += 1
                guard scanEscape(decodingInto: &decoded) else { return false }
            case ..<0x20:
                return false
            case ..<0x80:
                decoded?.append(byte)
                index += 1
            default:
                let start = index
                guard scanUTF8Sequence() else { return false }
                decoded?.append(contentsOf: bytes[start..<index])
            }
        }
        return false
    }

    /// Reads the escape after a backslash.
    private mutating func scanEscape(decodingInto decoded: inout [UInt8]?) -> Bool {
        guard let byte = peek() else { return false }
        index += 1
        let simple: UInt8
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): simple = byte
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"):
            guard let unit = scanHex4() else { return false }
            var scalarValue = UInt32(unit)
            if (0xD800...0xDBFF).contains(unit) {
                guard consume(UInt8(ascii: "\\")), consume(UInt8(ascii: "u")), let low = scanHex4(),
                    (0xDC00...0xDFFF).contains(low)
                else { return false }
                scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(scalarValue) else { return false }  // a lone low surrogate
            decoded?.append(contentsOf: String(Character(scalar)).utf8)
            return true
        default: return false
        }
        decoded?.append(simple)
        return true
    }

    /// Reads four hexadecimal digits.
    private mutating func scanHex4() -> UInt16? {
        guard bytes.endIndex - index >= 4 else { return nil }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    /// Reads one well-formed multi-byte UTF-8 sequence (Unicode table 3-7: no overlong forms, no
    /// surrogates, nothing above U+10FFFF).
    private mutating func scanUTF8Sequence() -> Bool {
        let lead = bytes[index]
        let count: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: count = 2
        case 0xE0:
            count = 3
            secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: count = 3
        case 0xED:
            count = 3
            secondRange = 0x80...0x9F
        case 0xF0:
            count = 4
            secondRange = 0x90...0xBF
        case 0xF1...0xF3: count = 4
        case 0xF4:
            count = 4
            secondRange = 0x80...0x8F
        default: return false
        }
        guard bytes.endIndex - index >= count, secondRange.contains(bytes[index + 1]) else { return false }
        for offset in 2..<count where !(0x80...0xBF).contains(bytes[index + offset]) { return false }
        index += count
        return true
    }
}
