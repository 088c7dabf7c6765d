import Testing

@testable import ListSyncNetwork

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A write to a connection the other end dropped fails with an error instead of raising SIGPIPE, which
/// would kill the process (an app whose peer's phone just went away): `MSG_NOSIGNAL` on Linux,
/// `SO_NOSIGPIPE` on every socket on Darwin.
struct BrokenPipeTests {
    /// Writes to a peer-closed socket until the kernel refuses: the error comes back as a `SocketError`
    /// and the test process is still alive to check it.
    @Test func writingToAPeerClosedSocketFailsWithoutSignal() throws {
        let address = try Endpoint.loopbackIPv4().addresses()[0]
        let listener = try Socket(family: address.family)
        defer { listener.close() }
        let bound = try listener.bindAndListen(on: address)
        let client = try Socket(family: bound.family)
        defer { client.close() }
        try client.startConnect(to: bound)
        let accepted = try #require(waitFor { try? listener.acceptConnection() })
        accepted.0.close()
        let bytes = [UInt8](repeating: 7, count: 1024)[...]
        var failure: SocketError?
        for _ in 0..<200 where failure == nil {
            do {
                _ = try client.writeAvailable(bytes)
                usleep(10_000)
            } catch {
                failure = error
            }
        }
        let error = try #require(failure, "writes to a closed connection kept succeeding")
        #expect([EPIPE, ECONNRESET].contains(error.errno), "\(error)")
    }

    #if canImport(Darwin)
        /// Every socket has `SO_NOSIGPIPE` set, as Darwin has no `MSG_NOSIGNAL` guarantee.
        @Test func everySocketHasNoSigPipe() throws {
            let socket = try Socket(family: AF_INET)
            defer { socket.close() }
            var value: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            #expect(getsockopt(socket.descriptor, SOL_SOCKET, SO_NOSIGPIPE, &value, &length) == 0)
            #expect(value != 0)
        }
    #endif

    /// Polls `body` every 10 ms for up to 5 s until it returns a value.
    private func waitFor<Value>(_ body: () -> Value??) -> Value? {
        for _ in 0..<500 {
            if let value = body() ?? nil { return value }
            usleep(10_000)
        }
        return nil
    }
}
