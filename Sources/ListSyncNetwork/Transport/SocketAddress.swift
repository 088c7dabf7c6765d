#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One address of an endpoint as the socket calls take it: a `sockaddr_in` or a `sockaddr_in6` (with
/// its scope), in storage large enough for either.
struct SocketAddress: Sendable {
    /// The address.
    private var storage = sockaddr_storage()
    /// Its length in bytes.
    private(set) var length: socklen_t

    /// A copy of the `length` bytes at `address` (as `getaddrinfo` returns them), at most a
    /// `sockaddr_storage`.
    init(_ address: UnsafePointer<sockaddr>, length: socklen_t) {
        let count = min(Int(length), MemoryLayout<sockaddr_storage>.size)
        self.length = socklen_t(count)
        withUnsafeMutableBytes(of: &storage) { target in
            target.copyMemory(from: UnsafeRawBufferPointer(start: address, count: count))
        }
    }

    /// The address a call such as `accept` or `getsockname` writes through its `sockaddr` and length
    /// arguments, and what `body` returned.
    static func receive<Result>(
        _ body: (UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<socklen_t>) throws(SocketError) -> Result
    ) throws(SocketError) -> (address: SocketAddress, result: Result) {
        var address = SocketAddress(length: socklen_t(MemoryLayout<sockaddr_storage>.size))
        var length = address.length
        let result = try withUnsafeMutableBytes(of: &address.storage) { raw throws(SocketError) in
            try body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), &length)
        }
        address.length = min(length, socklen_t(MemoryLayout<sockaddr_storage>.size))
        return (address, result)
    }

    /// An empty address of `length` bytes, to be written by a system call.
    private init(length: socklen_t) { self.length = length }

    /// `AF_INET` or `AF_INET6`.
    var family: Int32 { Int32(storage.ss_family) }

    /// The IPv6 scope (interface index), 0 for IPv4 and unscoped IPv6 addresses.
    var scopeID: UInt32 {
        guard family == AF_INET6 else { return 0 }
        return withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in6.self).sin6_scope_id }
    }

    /// The port.
    var port: UInt16 {
        withUnsafeBytes(of: storage) { raw in
            UInt16(
                bigEndian: family == AF_INET6
                    ? raw.load(as: sockaddr_in6.self).sin6_port : raw.load(as: sockaddr_in.self).sin_port)
        }
    }

    /// The numeric endpoint: the address (with `%scope` for a scoped IPv6 one) and the port.
    var endpoint: Endpoint {
        var host = [CChar](repeating: 0, count: 1025)
        let status = withSocketAddress { address, length in
            getnameinfo(address, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST)
        }
        let text =
            status == 0 ? String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
        return Endpoint(host: text, port: port)
    }

    /// Calls `body` with a pointer to the `sockaddr` and its length.
    func withSocketAddress<Result, Failure: Error>(
        _ body: (UnsafePointer<sockaddr>, socklen_t) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try withUnsafeBytes(of: storage) { raw throws(Failure) in
            try body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), length)
        }
    }
}

extension Endpoint {
    /// Whether the host is a numeric address, which resolves without a lookup.
    var isNumeric: Bool {
        host.contains(":") || host.utf8.allSatisfy { $0 == UInt8(ascii: ".") || (0x30...0x39).contains($0) }
    }

    /// The addresses of this endpoint, IPv4 and IPv6, in the order `getaddrinfo` gives them (the order to
    /// try them in): for a numeric host its one address, without a lookup; for a host name those the
    /// resolver finds, which may block (never call it on the event loop for a name).
    /// - Throws: ``SocketError`` of `getaddrinfo` naming the host, or `EINVAL` for a host that is
    ///   neither an address nor a host name.
    func addresses() throws(SocketError) -> [SocketAddress] {
        do {
            try Self.validate(host: Substring(host))
        } catch {
            throw SocketError(errno: EINVAL, function: "getaddrinfo(\(host)): \(error)")
        }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = streamSocketType
        hints.ai_flags = AI_NUMERICSERV | (isNumeric ? AI_NUMERICHOST : 0)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0 else {
            throw SocketError(
                errno: status == EAI_SYSTEM ? errno : 0, function: "getaddrinfo(\(host))", addressInfoError: status)
        }
        defer { freeaddrinfo(list) }
        var addresses: [SocketAddress] = []
        var next = list
        while let info = next?.pointee {
            if let address = info.ai_addr, info.ai_family == AF_INET || info.ai_family == AF_INET6 {
                addresses.append(SocketAddress(address, length: info.ai_addrlen))
            }
            next = info.ai_next
        }
        guard !addresses.isEmpty else {
            throw SocketError(errno: 0, function: "getaddrinfo(\(host))", addressInfoError: EAI_NONAME)
        }
        return addresses
    }
}
