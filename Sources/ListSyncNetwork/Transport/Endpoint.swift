#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A numeric IPv4 or IPv6 address and a TCP port, e.g. `127.0.0.1:7000` or `[::1]:7000`.
public struct Endpoint: Hashable, Sendable, CustomStringConvertible {
    /// The numeric address: `127.0.0.1`, `0.0.0.0`, `::1`, `::`.
    public var host: String
    /// The port; 0 to listen on any free port.
    public var port: UInt16

    /// The endpoint `host`:`port`.
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

    /// Calls `body` with the `sockaddr` of this endpoint.
    func withSocketAddress<Result>(
        _ body: (UnsafePointer<sockaddr>, socklen_t) throws(SocketError) -> Result
    ) throws(SocketError) -> Result {
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else {
                throw SocketError(errno: EINVAL, function: "inet_pton(\(host))")
            }
            return try withUnsafePointer(to: &address) { pointer throws(SocketError) in
                try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer throws(SocketError) in
                    try body(pointer, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            throw SocketError(errno: EINVAL, function: "inet_pton(\(host))")
        }
        return try withUnsafePointer(to: &address) { pointer throws(SocketError) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer throws(SocketError) in
                try body(pointer, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }

    /// The text of a NUL-terminated C string buffer.
    private static func string(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The endpoint stored in `storage` (IPv4 or IPv6).
    init(_ storage: sockaddr_storage) {
        var storage = storage
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        if Int32(storage.ss_family) == AF_INET6 {
            let address = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in6.self) }
            var ip = address.sin6_addr
            inet_ntop(AF_INET6, &ip, &buffer, socklen_t(buffer.count))
            self.init(host: Self.string(buffer), port: UInt16(bigEndian: address.sin6_port))
        } else {
            let address = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in.self) }
            var ip = address.sin_addr
            inet_ntop(AF_INET, &ip, &buffer, socklen_t(buffer.count))
            self.init(host: Self.string(buffer), port: UInt16(bigEndian: address.sin_port))
        }
    }
}
