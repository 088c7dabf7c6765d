/// A host and a TCP port: `127.0.0.1:7000`, `[::1]:7000`, `[fe80::1%en0]:7000` or `phone.local:7000`.
///
/// The host is a numeric IPv4 or IPv6 address (an IPv6 link-local one with its scope, the interface
/// name or number after `%`) or a host name, which is looked up (`getaddrinfo`, IPv4 and IPv6) each
/// time the endpoint is dialed; every address found is tried in order until one connects.
public struct Endpoint: Hashable, Sendable, CustomStringConvertible {
    /// The host: `127.0.0.1`, `0.0.0.0`, `::1`, `::`, `fe80::1%en0`, `localhost` or another host name.
    public var host: String
    /// The port; 0 to listen on any free port.
    public var port: UInt16

    /// The endpoint `host`:`port` (not checked: a host that is neither an address nor a host name fails
    /// when the endpoint is listened on or dialed; ``init(parsing:)`` checks).
    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// `127.0.0.1:port`.
    public static func loopbackIPv4(port: UInt16 = 0) -> Endpoint { Endpoint(host: "127.0.0.1", port: port) }
    /// `[::1]:port`.
    public static func loopbackIPv6(port: UInt16 = 0) -> Endpoint { Endpoint(host: "::1", port: port) }

    /// Whether the host is an IPv6 address.
    public var isIPv6: Bool { host.contains(":") }

    /// `host:port`, with brackets around an IPv6 host.
    public var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
