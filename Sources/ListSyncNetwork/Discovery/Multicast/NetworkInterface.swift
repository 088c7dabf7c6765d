#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A network interface as `getifaddrs` lists it: its name, index, state and addresses.
struct NetworkInterface: Hashable, Sendable {
    /// The name: `eth0`, `en0`, `lo`.
    var name: String
    /// The index (`if_nametoindex`), which IPv6 multicast calls take.
    var index: UInt32
    /// Whether the interface is up and running.
    var isUp: Bool
    /// Whether it is a loopback interface.
    var isLoopback: Bool
    /// Whether it supports multicast.
    var supportsMulticast: Bool
    /// Its IPv4 addresses.
    var ipv4Addresses: [IPv4Address] = []
    /// Its IPv6 addresses.
    var ipv6Addresses: [IPv6Address] = []

    /// Whether mDNS can run on it: up, multicast-capable, with an address; loopback only if `loopback`.
    func carriesMulticastDNS(loopback: Bool) -> Bool {
        isUp && supportsMulticast && (loopback || !isLoopback) && !(ipv4Addresses.isEmpty && ipv6Addresses.isEmpty)
    }

    /// The interfaces of this host, in the order `getifaddrs` first names them.
    /// - Throws: ``SocketError`` of `getifaddrs`.
    static func all() throws(SocketError) -> [NetworkInterface] {
        var list: UnsafeMutablePointer<ifaddrs>?
        try syscall("getifaddrs") { getifaddrs(&list) }
        defer { freeifaddrs(list) }
        var interfaces: [NetworkInterface] = []
        var next = list
        while let entry = next?.pointee {
            next = entry.ifa_next
            let name = String(cString: entry.ifa_name)
            let flags = UInt32(entry.ifa_flags)
            var interface =
                interfaces.first { $0.name == name }
                ?? NetworkInterface(
                    name: name, index: if_nametoindex(entry.ifa_name),
                    isUp: flags & UInt32(IFF_UP) != 0 && flags & UInt32(IFF_RUNNING) != 0,
                    isLoopback: flags & UInt32(IFF_LOOPBACK) != 0, supportsMulticast: flags & UInt32(IFF_MULTICAST) != 0
                )
            if let address = entry.ifa_addr {
                let socketAddress = SocketAddress(
                    address,
                    length: socklen_t(
                        Int32(address.pointee.sa_family) == AF_INET6
                            ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size))
                switch socketAddress.ipAddress {
                case .v4(let ipv4)?: interface.ipv4Addresses.append(ipv4)
                case .v6(let ipv6)?: interface.ipv6Addresses.append(ipv6)
                case nil: break
                }
            }
            if let position = interfaces.firstIndex(where: { $0.name == name }) {
                interfaces[position] = interface
            } else {
                interfaces.append(interface)
            }
        }
        return interfaces
    }
}
