/// A DNS message (RFC 1035 section 4.1) as mDNS uses it (RFC 6762 section 18): a header and four
/// sections. Decoded with ``init(decoding:)``, encoded with ``encoded()``.
struct DNSMessage: Hashable, Sendable {
    /// The most bytes of a message this codec reads or writes (RFC 6762 section 17).
    static let maximumByteCount = 9000
    /// The bytes of the header.
    static let headerByteCount = 12
    /// The flags of an mDNS response: QR (a response) and AA (authoritative), RFC 6762 section 18.
    static let responseFlags: UInt16 = 0x8400

    /// The query ID; 0 in multicast mDNS messages (RFC 6762 section 18.1).
    var id: UInt16 = 0
    /// The header's second 16 bits, as received: QR, opcode, AA, TC, RD, RA, Z, AD, CD and rcode.
    var flags: UInt16 = 0
    /// The question section.
    var questions: [DNSQuestion] = []
    /// The answer section.
    var answers: [DNSResourceRecord] = []
    /// The authority section (in mDNS, the records a prober proposes, RFC 6762 section 8.2).
    var authorities: [DNSResourceRecord] = []
    /// The additional section.
    var additionals: [DNSResourceRecord] = []

    /// Whether this is a response (the QR bit).
    var isResponse: Bool { flags & 0x8000 != 0 }
}
