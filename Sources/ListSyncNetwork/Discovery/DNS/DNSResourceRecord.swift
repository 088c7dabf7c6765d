/// One resource record of a message's answer, authority or additional section.
struct DNSResourceRecord: Hashable, Sendable {
    /// The class IN, the only one mDNS uses.
    static let internetClass: UInt16 = 1

    /// The record's owner name.
    var name: DNSName
    /// The class, at most 0x7FFF (the top bit of the wire field is ``cacheFlush``).
    var recordClass: UInt16 = DNSResourceRecord.internetClass
    /// Whether this record replaces every cached record of its name, type and class (the cache-flush bit
    /// of a unique record, RFC 6762 section 10.2); false for shared records such as a service's PTR.
    var cacheFlush: Bool
    /// Seconds the record may be cached; 0 withdraws it (a goodbye, RFC 6762 section 10.1).
    var ttl: UInt32
    /// The record data, which also gives the type.
    var data: DNSRecordData

    /// The record's type.
    var type: DNSRecordType { data.type }
}
