#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `type` argument of `socket` for UDP (an enum value in Glibc, an `Int32` in Darwin).
#if canImport(Glibc)
    let datagramSocketType = Int32(SOCK_DGRAM.rawValue)
#else
    let datagramSocketType = SOCK_DGRAM
#endif

extension Socket {
    /// A new UDP socket for `family` (`AF_INET` or `AF_INET6`), non-blocking.
    static func datagram(family: Int32) throws(SocketError) -> Socket {
        let descriptor = try syscall("socket") { socket(family, datagramSocketType, 0) } ?? -1
        return try Socket(descriptor: descriptor)
    }

    /// Sets a socket option whose value is a C struct or a number of another width than `Int32`.
    func setOption<Value>(level: Int32, name: Int32, value: Value, label: String) throws(SocketError) {
        let descriptor = descriptor
        try syscall("setsockopt(\(label))") {
            withUnsafeBytes(of: value) { setsockopt(descriptor, level, name, $0.baseAddress, socklen_t($0.count)) }
        }
    }

    /// Sends `bytes` as one datagram to `address`.
    func sendDatagram(_ bytes: [UInt8], to address: SocketAddress) throws(SocketError) {
        let descriptor = descriptor
        _ = try address.withSocketAddress { pointer, length throws(SocketError) in
            try syscall("sendto(\(address.endpoint))") {
                bytes.withUnsafeBytes { sendto(descriptor, $0.baseAddress, $0.count, 0, pointer, length) }
            }
        }
    }

    /// Reads one datagram into `buffer` (a longer one is cut to its size): the byte count and the
    /// sender, or nil when none is waiting.
    func receiveDatagram(into buffer: inout [UInt8]) throws(SocketError) -> (count: Int, source: SocketAddress)? {
        let descriptor = descriptor
        let (source, count) = try SocketAddress.receive { address, length throws(SocketError) in
            try syscall("recvfrom", wouldBlockIsNil: true) {
                buffer.withUnsafeMutableBytes { recvfrom(descriptor, $0.baseAddress, $0.count, 0, address, length) }
            }
        }
        return count.map { ($0, source) }
    }
}
