/// The data of a resource record, decoded for the types mDNS and DNS-SD use and kept as bytes otherwise.
enum DNSRecordData: Hashable, Sendable {
    /// An IPv4 address.
    case a(IPv4Address)
    /// An IPv6 address.
    case aaaa(IPv6Address)
    /// A pointer to another name.
    case ptr(DNSName)
    /// A service's location (RFC 2782).
    case srv(priority: UInt16, weight: UInt16, port: UInt16, target: DNSName)
    /// Character strings of at most 255 bytes each (DNS-SD reads them as key/value pairs: ``TXTRecord``).
    case txt([[UInt8]])
    /// The next name and the types that exist for the owner name (RFC 4034 section 4.1).
    case nsec(next: DNSName, types: Set<DNSRecordType>)
    /// The data of a type this codec does not interpret, as received; for one it does interpret (A, PTR,
    /// ...), the bytes are written as they are and read back as that type.
    case opaque(type: DNSRecordType, bytes: [UInt8])

    /// The record type this data belongs to.
    var type: DNSRecordType {
        switch self {
        case .a: .a
        case .aaaa: .aaaa
        case .ptr: .ptr
        case .srv: .srv
        case .txt: .txt
        case .nsec: .nsec
        case .opaque(let type, _): type
        }
    }
}
