#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension SocketAddress {
    /// An IPv4 or IPv6 address, as DNS records carry them.
    enum IPAddress: Hashable, Sendable {
        /// An IPv4 address.
        case v4(IPv4Address)
        /// An IPv6 address.
        case v6(IPv6Address)
    }

    /// The IP address of an `AF_INET` or `AF_INET6` address, nil for another family (an `AF_PACKET`
    /// entry of `getifaddrs`).
    var ipAddress: IPAddress? {
        withSocketAddress { pointer, _ in
            switch Int32(pointer.pointee.sa_family) {
            case AF_INET:
                let address = UnsafeRawPointer(pointer).load(as: sockaddr_in.self).sin_addr
                return withUnsafeBytes(of: address) { IPv4Address(bytes: $0).map(IPAddress.v4) }
            case AF_INET6:
                let address = UnsafeRawPointer(pointer).load(as: sockaddr_in6.self).sin6_addr
                return withUnsafeBytes(of: address) { IPv6Address(bytes: $0).map(IPAddress.v6) }
            default:
                return nil
            }
        }
    }
}
