/// A resource record type (RFC 1035 section 3.2.2), or a question type such as ANY.
struct DNSRecordType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// An IPv4 host address.
    static let a = DNSRecordType(rawValue: 1)
    /// A pointer to another name (DNS-SD: service type to instance).
    static let ptr = DNSRecordType(rawValue: 12)
    /// Text strings (DNS-SD: key/value pairs).
    static let txt = DNSRecordType(rawValue: 16)
    /// An IPv6 host address (RFC 3596).
    static let aaaa = DNSRecordType(rawValue: 28)
    /// A service location: priority, weight, port and target host (RFC 2782).
    static let srv = DNSRecordType(rawValue: 33)
    /// The types that exist for a name (RFC 4034 section 4; mDNS use: RFC 6762 section 6.1).
    static let nsec = DNSRecordType(rawValue: 47)
    /// Any type, in a question.
    static let any = DNSRecordType(rawValue: 255)

    /// The type's number.
    let rawValue: UInt16

    /// The type numbered `rawValue`.
    init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The mnemonic of a type this codec knows, else `TYPE<n>` (RFC 3597 section 5).
    var description: String {
        switch self {
        case .a: "A"
        case .ptr: "PTR"
        case .txt: "TXT"
        case .aaaa: "AAAA"
        case .srv: "SRV"
        case .nsec: "NSEC"
        case .any: "ANY"
        default: "TYPE\(rawValue)"
        }
    }
}
