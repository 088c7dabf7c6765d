#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A non-blocking TCP socket that is closed exactly once.
///
/// Not thread-safe: used only by the event loop that owns it. Debug builds trap when one is deinitialised
/// open, so every path that drops a socket must close it.
final class Socket {
    /// The file descriptor, or -1 once closed.
    private(set) var descriptor: Int32

    /// Wraps an open descriptor (created or accepted), makes it non-blocking and, on Darwin, keeps a write
    /// to a closed connection from raising SIGPIPE (`SO_NOSIGPIPE`; Linux passes `MSG_NOSIGNAL` to `send`).
    init(descriptor: Int32) throws(SocketError) {
        self.descriptor = descriptor
        do {
            let flags = try syscall("fcntl(F_GETFL)") { fcntl(descriptor, F_GETFL) } ?? 0
            try syscall("fcntl(F_SETFL)") { fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) }
            #if canImport(Darwin)
                try setOption(level: SOL_SOCKET, name: SO_NOSIGPIPE, value: 1, label: "SO_NOSIGPIPE")
            #endif
        } catch {
            close()
            throw error
        }
    }

    /// A new TCP socket for `family` (`AF_INET` or `AF_INET6`).
    convenience init(family: Int32) throws(SocketError) {
        let descriptor = try syscall("socket") { socket(family, streamSocketType, 0) } ?? -1
        try self.init(descriptor: descriptor)
    }

    deinit { assert(descriptor == -1, "socket \(descriptor) deinitialised without close()") }

    /// Whether ``close()`` has been called.
    var isClosed: Bool { descriptor == -1 }

    /// Closes the descriptor; later calls do nothing.
    func close() {
        guard descriptor != -1 else { return }
        closeDescriptor(descriptor)
        descriptor = -1
    }

    /// Sets an integer socket option.
    func setOption(level: Int32, name: Int32, value: Int32, label: String) throws(SocketError) {
        var value = value
        try syscall("setsockopt(\(label))") {
            setsockopt(descriptor, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
        }
    }

    /// Binds to `address` and listens; returns the bound address (with the port chosen when 0).
    func bindAndListen(on address: SocketAddress, backlog: Int32 = 128) throws(SocketError) -> SocketAddress {
        try setOption(level: SOL_SOCKET, name: SO_REUSEADDR, value: 1, label: "SO_REUSEADDR")
        if address.family == AF_INET6 {
            try setOption(level: Int32(IPPROTO_IPV6), name: IPV6_V6ONLY, value: 1, label: "IPV6_V6ONLY")
        }
        _ = try address.withSocketAddress { pointer, length throws(SocketError) in
            try syscall("bind(\(address.endpoint))") { bind(descriptor, pointer, length) }
        }
        try syscall("listen") { listen(descriptor, backlog) }
        return try localAddress()
    }

    /// The address the socket is bound to.
    func localAddress() throws(SocketError) -> SocketAddress {
        try SocketAddress.receive { address, length throws(SocketError) in
            try syscall("getsockname") { getsockname(descriptor, address, length) }
        }.address
    }

    /// Why this socket no longer accepts connections (the system tore it down, as iOS does to the
    /// listeners of a suspended app), or nil while it listens.
    func listeningError() -> SocketError? {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ACCEPTCONN, &value, &length) == 0 else {
            return SocketError(errno: errno, function: "getsockopt(SO_ACCEPTCONN)")
        }
        return value != 0 ? nil : SocketError(errno: EINVAL, function: "listen (the socket stopped listening)")
    }

    /// Accepts one pending connection, or returns nil when none is pending.
    func acceptConnection() throws(SocketError) -> (Socket, Endpoint)? {
        let (address, accepted) = try SocketAddress.receive { address, length throws(SocketError) in
            try syscall("accept", wouldBlockIsNil: true) { accept(descriptor, address, length) }
        }
        guard let accepted else { return nil }
        return (try Socket(descriptor: accepted), address.endpoint)
    }

    /// Starts connecting to `address`; completion is signalled by writability, then ``connectionError()``.
    func startConnect(to address: SocketAddress) throws(SocketError) {
        try address.withSocketAddress { pointer, length throws(SocketError) in
            _ = try syscall("connect(\(address.endpoint))", wouldBlockIsNil: true) {
                connect(descriptor, pointer, length)
            }
        }
    }

    /// The outcome of a non-blocking connect: nil when connected.
    func connectionError() -> SocketError? {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &value, &length) == 0 else {
            return SocketError(errno: errno, function: "getsockopt(SO_ERROR)")
        }
        return value == 0 ? nil : SocketError(errno: value, function: "connect")
    }

    /// Reads at most `buffer.count` bytes: the count read (0 at end of stream), or nil when none are ready.
    func readAvailable(into buffer: inout [UInt8]) throws(SocketError) -> Int? {
        let descriptor = descriptor
        return try syscall("read", wouldBlockIsNil: true) {
            buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        }
    }

    /// Writes as many of `bytes` as the kernel takes now; returns the count (0 when it takes none).
    func writeAvailable(_ bytes: ArraySlice<UInt8>) throws(SocketError) -> Int {
        let descriptor = descriptor
        return try syscall("send", wouldBlockIsNil: true) {
            bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Self.noSignal) }
        } ?? 0
    }

    /// Flag that keeps a write to a closed connection from raising SIGPIPE: `MSG_NOSIGNAL` on Linux; none
    /// on Darwin, where every socket has `SO_NOSIGPIPE` set instead (see ``init(descriptor:)``).
    #if canImport(Glibc)
        private static let noSignal = Int32(MSG_NOSIGNAL)
    #else
        private static let noSignal: Int32 = 0
    #endif
}

/// The `type` argument of `socket` for TCP (an enum value in Glibc, an `Int32` in Darwin).
#if canImport(Glibc)
    let streamSocketType = Int32(SOCK_STREAM.rawValue)
#else
    let streamSocketType = SOCK_STREAM
#endif
