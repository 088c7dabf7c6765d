/// One entry of a message's question section.
struct DNSQuestion: Hashable, Sendable {
    /// The name asked about.
    var name: DNSName
    /// The type asked for (``DNSRecordType/any`` for all).
    var type: DNSRecordType
    /// The class, at most 0x7FFF (the top bit of the wire field is ``unicastResponse``); 1 is IN.
    var recordClass: UInt16 = DNSResourceRecord.internetClass
    /// Whether the asker prefers a unicast reply (the QU bit, RFC 6762 section 5.4).
    var unicastResponse = false
}
