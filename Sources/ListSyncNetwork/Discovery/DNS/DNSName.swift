/// A domain name: labels, most specific first, compared without regard to ASCII case (RFC 4343) but kept
/// as received (mDNS names are case-preserving, RFC 6762 section 16).
///
/// A label is any 1 to 63 bytes (a DNS-SD instance label may hold spaces, dots and UTF-8, RFC 6763
/// section 4.3); the whole name takes at most 255 bytes on the wire.
struct DNSName: Hashable, Sendable, CustomStringConvertible {
    /// The most bytes in one label.
    static let maximumLabelByteCount = 63
    /// The most bytes a name takes on the wire, length bytes and the root's zero byte included.
    static let maximumByteCount = 255
    /// The root name (no labels).
    static let root = DNSName(validated: [])

    /// The labels, most specific first, without the empty root label.
    let labels: [[UInt8]]

    /// The name made of `labels`.
    init(labels: [[UInt8]]) throws(DNSNameError) {
        for (index, label) in labels.enumerated() {
            guard !label.isEmpty else { throw .emptyLabel(index: index) }
            guard label.count <= Self.maximumLabelByteCount else {
                throw .labelTooLong(index: index, byteCount: label.count)
            }
        }
        let byteCount = Self.wireByteCount(of: labels)
        guard byteCount <= Self.maximumByteCount else { throw .nameTooLong(byteCount: byteCount) }
        self.labels = labels
    }

    /// The name whose labels are `dotted` split at every dot (a final dot is allowed): for names whose
    /// labels hold no dot, such as `_listsync._tcp.local`; `""` and `"."` are the root.
    init(_ dotted: String) throws(DNSNameError) {
        var parts = dotted.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        if parts.last?.isEmpty == true { parts.removeLast() }
        if dotted == "." { parts = [] }
        try self.init(labels: parts.map { Array($0) })
    }

    /// A name whose labels the caller has checked.
    init(validated labels: [[UInt8]]) { self.labels = labels }

    /// The bytes `labels` take on the wire, uncompressed.
    static func wireByteCount(of labels: [[UInt8]]) -> Int { labels.reduce(1) { $0 + 1 + $1.count } }

    /// The bytes this name takes on the wire, uncompressed.
    var wireByteCount: Int { Self.wireByteCount(of: labels) }

    /// This name followed by `suffix`: `kitchen` + `_listsync._tcp.local`.
    func appending(_ suffix: DNSName) throws(DNSNameError) -> DNSName {
        try DNSName(labels: labels + suffix.labels)
    }

    /// The name without its first label (the root for the root).
    var parent: DNSName { DNSName(validated: Array(labels.dropFirst())) }

    /// `byte` with ASCII upper case folded to lower case; other bytes (UTF-8 included) unchanged.
    static func folded(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }

    /// Whether the names have the same labels, ignoring ASCII case.
    static func == (left: DNSName, right: DNSName) -> Bool {
        guard left.labels.count == right.labels.count else { return false }
        // Plain loops and an exact comparison first: names are compared for every cached record.
        for (a, b) in zip(left.labels, right.labels) where a != b {
            guard a.count == b.count else { return false }
            for index in a.indices where folded(a[index]) != folded(b[index]) { return false }
        }
        return true
    }

    /// Hashes the labels with ASCII case folded, as ``==`` compares them.
    func hash(into hasher: inout Hasher) {
        hasher.combine(labels.count)
        for label in labels {
            hasher.combine(label.count)
            label.map(Self.folded).withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    /// The labels joined by dots, with a dot or backslash inside a label written `\.` or `\\` (RFC 6763
    /// section 4.3) and bytes that are not valid UTF-8 replaced; `.` for the root. For display only.
    var description: String {
        guard !labels.isEmpty else { return "." }
        return labels.map { label in
            String(decoding: label, as: UTF8.self).reduce(into: "") { text, character in
                if character == "." || character == "\\" { text.append("\\") }
                text.append(character)
            }
        }.joined(separator: ".")
    }
}
