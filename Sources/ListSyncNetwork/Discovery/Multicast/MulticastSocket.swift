#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A non-blocking UDP socket on the mDNS port that has joined the mDNS group of its family (224.0.0.251
/// or ff02::fb) on some interfaces, and multicasts to the group on each of them.
///
/// Bound to the wildcard address and port 5353 with `SO_REUSEADDR` and `SO_REUSEPORT`, so that it
/// coexists with the system's responder (avahi-daemon, mDNSResponder), which does the same; hop limit 255
/// (RFC 6762 section 11) and loopback on, so that other sockets on this host (the system's responder,
/// another ListSync peer) hear what it sends. Not thread-safe: owned by one ``MDNSRunner``.
final class MulticastSocket {
    /// The largest packet read: one byte over the codec's limit, so that a larger one is seen and refused.
    static let receiveBufferSize = DNSMessage.maximumByteCount + 1

    /// `AF_INET` or `AF_INET6`.
    let family: Int32
    /// The interfaces joined, which ``send(_:)`` multicasts on.
    let interfaces: [NetworkInterface]
    /// The socket.
    let socket: Socket
    /// The group's address and port.
    private let group: SocketAddress

    /// A socket of `family` on `port` (5353; tests may pick another) that has joined the group on
    /// `interfaces` (those with an address of the family; none joined is an error).
    /// - Throws: ``SocketError`` naming the call that failed.
    init(family: Int32, interfaces: [NetworkInterface], port: UInt16 = MDNSCore.port) throws(SocketError) {
        self.family = family
        let isIPv6 = family == AF_INET6
        let joined = interfaces.filter { isIPv6 ? !$0.ipv6Addresses.isEmpty : !$0.ipv4Addresses.isEmpty }
        self.interfaces = joined
        guard !joined.isEmpty else {
            throw SocketError(errno: ENODEV, function: "mDNS (no \(isIPv6 ? "IPv6" : "IPv4") interface)")
        }
        group = try Endpoint(host: isIPv6 ? "ff02::fb" : "224.0.0.251", port: port).addresses()[0]
        let wildcard = try Endpoint(host: isIPv6 ? "::" : "0.0.0.0", port: port).addresses()[0]
        socket = try Socket.datagram(family: family)
        do {
            try configure(bindingTo: wildcard)
        } catch {
            socket.close()
            throw error
        }
    }

    /// Sets the options, binds and joins the group.
    private func configure(bindingTo wildcard: SocketAddress) throws(SocketError) {
        try socket.setOption(level: SOL_SOCKET, name: SO_REUSEADDR, value: 1, label: "SO_REUSEADDR")
        try socket.setOption(level: SOL_SOCKET, name: SO_REUSEPORT, value: 1, label: "SO_REUSEPORT")
        if family == AF_INET6 {
            let level = Int32(IPPROTO_IPV6)
            try socket.setOption(level: level, name: IPV6_V6ONLY, value: 1, label: "IPV6_V6ONLY")
            try socket.setOption(level: level, name: IPV6_MULTICAST_HOPS, value: 255, label: "IPV6_MULTICAST_HOPS")
            try socket.setOption(level: level, name: IPV6_MULTICAST_LOOP, value: 1, label: "IPV6_MULTICAST_LOOP")
        } else {
            // Darwin (BSD) takes these two as a u_char; Linux takes an int or a u_char.
            let level = Int32(IPPROTO_IP)
            try socket.setOption(level: level, name: IP_MULTICAST_TTL, value: UInt8(255), label: "IP_MULTICAST_TTL")
            try socket.setOption(level: level, name: IP_MULTICAST_LOOP, value: UInt8(1), label: "IP_MULTICAST_LOOP")
        }
        let descriptor = socket.descriptor
        _ = try wildcard.withSocketAddress { pointer, length throws(SocketError) in
            try syscall("bind(\(wildcard.endpoint))") { bind(descriptor, pointer, length) }
        }
        for interface in interfaces { try join(on: interface) }
    }

    /// Joins the group on `interface`.
    private func join(on interface: NetworkInterface) throws(SocketError) {
        if family == AF_INET6 {
            var request = ipv6_mreq()
            request.ipv6mr_multiaddr = Self.groupAddress6
            request.ipv6mr_interface = interface.index
            try socket.setOption(
                level: Int32(IPPROTO_IPV6), name: IPV6_JOIN_GROUP, value: request,
                label: "IPV6_JOIN_GROUP(\(interface.name))")
        } else {
            var request = ip_mreq()
            request.imr_multiaddr = Self.inAddress(IPv4Address(224, 0, 0, 251))
            request.imr_interface = Self.inAddress(interface.ipv4Addresses[0])
            try socket.setOption(
                level: Int32(IPPROTO_IP), name: IP_ADD_MEMBERSHIP, value: request,
                label: "IP_ADD_MEMBERSHIP(\(interface.name))")
        }
    }

    /// Multicasts `packet` on every joined interface; returns the failures (a full buffer, an interface
    /// gone), which a later announcement or query makes up for.
    @discardableResult
    func send(_ packet: [UInt8]) -> [SocketError] {
        var failures: [SocketError] = []
        for interface in interfaces {
            do throws(SocketError) {
                if family == AF_INET6 {
                    try socket.setOption(
                        level: Int32(IPPROTO_IPV6), name: IPV6_MULTICAST_IF, value: interface.index,
                        label: "IPV6_MULTICAST_IF(\(interface.name))")
                } else {
                    try socket.setOption(
                        level: Int32(IPPROTO_IP), name: IP_MULTICAST_IF,
                        value: Self.inAddress(interface.ipv4Addresses[0]),
                        label: "IP_MULTICAST_IF(\(interface.name))")
                }
                try socket.sendDatagram(packet, to: group)
            } catch {
                failures.append(error)
            }
        }
        return failures
    }

    /// Reads one datagram into `buffer`: its byte count and source port, or nil when none is waiting.
    func receive(into buffer: inout [UInt8]) throws(SocketError) -> (count: Int, sourcePort: UInt16)? {
        try socket.receiveDatagram(into: &buffer).map { ($0.count, $0.source.port) }
    }

    /// Closes the socket (leaving the group).
    func close() { socket.close() }

    /// ff02::fb.
    private static let groupAddress6: in6_addr = {
        var address = in6_addr()
        withUnsafeMutableBytes(of: &address) { bytes in
            bytes.copyBytes(from: [0xFF, 0x02] + [UInt8](repeating: 0, count: 13) + [0xFB])
        }
        return address
    }()

    /// `address` as an `in_addr`.
    private static func inAddress(_ address: IPv4Address) -> in_addr {
        var result = in_addr()
        withUnsafeMutableBytes(of: &result) { $0.copyBytes(from: address.bytes) }
        return result
    }
}
