#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finding peers of the same document on the LAN: multicast DNS (RFC 6762) and DNS-SD (RFC 6763),
/// service type `_listsync._tcp`, set as ``PeerConfiguration/discovery``.
///
/// Once the peer listens it advertises its port under ``instanceName`` (renamed `Name (2)` if another
/// device has the name), with a TXT record holding its protocol versions and a tag of each of its
/// documents (the first 15) that only holders of that document's secret can compute; it browses for
/// the others and dials those of each of its documents, one connection per pair and document (the
/// side whose instance name sorts lower dials).
public struct PeerDiscovery: Hashable, Sendable {
    /// The name this peer is advertised as: 1 to 63 bytes of UTF-8 (longer ones are cut at a character).
    public var instanceName: String
    /// The host name of the advertised address records, without `.local`: letters, digits and hyphens,
    /// at most 63 bytes; nil (the default) for `listsync-` and 8 random hexadecimal digits drawn when
    /// the peer starts listening. A name two peers share would mix their addresses up (each peer's
    /// cache-flush address records replace the other's), so the system's own host name, which its
    /// mDNS responder already owns and other machines may share, is no default.
    public var hostName: String?
    /// Whether to advertise this peer (others then find and dial it).
    public var advertises: Bool
    /// Whether to browse for others and dial those of this peer's document.
    public var browses: Bool
    /// The UDP port of multicast DNS (5353; tests may use another).
    var port: UInt16 = 5353

    /// Discovery as `instanceName` (default: this machine's host name) on host `hostName` (default: a
    /// random one), advertising and browsing.
    public init(
        instanceName: String = PeerDiscovery.systemHostName, hostName: String? = nil,
        advertises: Bool = true, browses: Bool = true
    ) {
        self.instanceName = Self.label(instanceName, fallback: "ListSync")
        self.hostName = hostName.map { Self.label(Self.hostLabel($0), fallback: "listsync") }
        self.advertises = advertises
        self.browses = browses
    }

    /// The first label of this machine's host name (`gethostname`), or `listsync` when it has none.
    public static var systemHostName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "listsync" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.split(separator: ".").first.map(String.init) ?? "listsync"
    }

    /// `text` cut at a character boundary to a DNS label's 63 bytes, or `fallback` when empty.
    private static func label(_ text: String, fallback: String) -> String {
        var label = Substring(text)
        while label.utf8.count > 63 { label.removeLast() }
        return label.isEmpty ? fallback : String(label)
    }

    /// `name` with every byte other than an ASCII letter, digit or hyphen replaced by a hyphen, and
    /// without leading or trailing hyphens (RFC 952 host names).
    private static func hostLabel(_ name: String) -> String {
        let bytes = name.utf8.map { byte -> UInt8 in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                byte
            default: UInt8(ascii: "-")
            }
        }
        let trimmed = bytes.drop { $0 == UInt8(ascii: "-") }.reversed().drop { $0 == UInt8(ascii: "-") }.reversed()
        return String(decoding: Array(trimmed), as: UTF8.self)
    }
}
