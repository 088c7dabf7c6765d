/// A column of integers encoded as groups, each a signed (zigzag) header varint: a header `h > 0` is a run,
/// one value repeated `h` times; `h < 0` is `-h` literal values. Repeated values (the same replica, a
/// constant stride, the same flags) take a few bytes per run; values that do not repeat share one header
/// per literal group. The encoding is canonical: every stretch of two or more equal values is one run,
/// and the values between runs are one literal group.
struct RunLengthWriter {
    private var writer = BinaryWriter()
    /// Single values not written yet, no two adjacent ones equal.
    private var literals: [UInt64] = []
    /// The value of the current run.
    private var value: UInt64 = 0
    /// The length of the current run so far (0 before the first value).
    private var length: UInt64 = 0

    /// Appends `value`.
    mutating func append(_ value: UInt64) {
        if length > 0 && value == self.value {
            length += 1
            return
        }
        endRun()
        self.value = value
        length = 1
    }

    /// Appends a signed value, zigzag-encoded.
    mutating func append(signed value: Int64) {
        append(zigzag(value))
    }

    /// The encoded column.
    mutating func finish() -> [UInt8] {
        endRun()
        writeLiterals()
        return writer.bytes
    }

    /// Ends the current run: a single value joins the literals, a longer run is written as a run.
    private mutating func endRun() {
        defer { length = 0 }
        switch length {
        case 0: return
        case 1: literals.append(value)
        default:
            writeLiterals()
            writer.writeVarint(zigzag(Int64(length)))
            writer.writeVarint(value)
        }
    }

    /// Writes the pending literals as one group.
    private mutating func writeLiterals() {
        guard !literals.isEmpty else { return }
        writer.writeVarint(zigzag(-Int64(literals.count)))
        for literal in literals { writer.writeVarint(literal) }
        literals.removeAll(keepingCapacity: true)
    }
}

/// Reads a column written by ``RunLengthWriter``, or by format version 1's writer of run pairs.
struct RunLengthReader {
    /// How a column's values are grouped.
    enum Layout {
        /// Format version 1: pairs of (varint run length at least 1, varint value).
        case pairs
        /// Format version 2: canonical runs and literal groups, as ``RunLengthWriter`` writes them.
        case groups
    }

    private var reader: BinaryReader
    private let layout: Layout
    /// The value last read.
    private var value: UInt64 = 0
    /// Where the value last read is encoded (shared by every value of a run), for errors about it.
    private(set) var valueOffset: Int
    /// Whether any value was read yet.
    private var hasValue = false
    /// The values of the current group not returned yet.
    private var remainingInGroup: UInt64 = 0
    /// Whether the current group is a literal group.
    private var inLiterals = false

    /// A reader of the column in `reader`'s remaining bytes, grouped as `layout`.
    init(_ reader: BinaryReader, layout: Layout) {
        self.reader = reader
        self.layout = layout
        valueOffset = reader.offset
    }

    /// The next value. Inlined: inside a run it is a decrement; reading bytes is out of line.
    @inline(__always)
    mutating func next() throws(BinaryDecodingError) -> UInt64 {
        if remainingInGroup == 0 || inLiterals { try advance() }
        remainingInGroup -= 1
        return value
    }

    /// Reads the next value's bytes: a new group's header and first value, or a literal.
    @inline(never)
    private mutating func advance() throws(BinaryDecodingError) {
        if remainingInGroup == 0 {
            try startGroup()
        } else {
            try readValue()
        }
    }

    /// The next value, zigzag-decoded.
    @inline(__always)
    mutating func nextSigned() throws(BinaryDecodingError) -> Int64 {
        unzigzag(try next())
    }

    /// Throws unless every value of the column was read.
    func expectEnd() throws(BinaryDecodingError) {
        guard remainingInGroup == 0 else { throw .trailingBytes(offset: reader.offset) }
        try reader.expectEnd()
    }

    /// Reads the next group's header and first value.
    private mutating func startGroup() throws(BinaryDecodingError) {
        let start = reader.offset
        switch layout {
        case .pairs:
            remainingInGroup = try reader.readVarint()
            guard remainingInGroup > 0 else { throw .notCanonical(offset: start) }
            valueOffset = reader.offset
            value = try reader.readVarint()
        case .groups:
            let header = try reader.readVarint()
            let isLiteral = header & 1 == 1
            let count = (header >> 1) + (header & 1)
            if isLiteral {
                guard !inLiterals else { throw .notCanonical(offset: start) }
                guard count <= UInt64(reader.remaining) else { throw .countTooLarge(offset: start) }
            } else {
                guard count > 1 else { throw .notCanonical(offset: start) }
            }
            inLiterals = isLiteral
            remainingInGroup = count
            try readValue()
        }
    }

    /// Reads a value of a version 2 group, which must differ from the value before it.
    private mutating func readValue() throws(BinaryDecodingError) {
        let start = reader.offset
        let next = try reader.readVarint()
        guard !hasValue || next != value else { throw .notCanonical(offset: start) }
        valueOffset = start
        value = next
        hasValue = true
    }
}
