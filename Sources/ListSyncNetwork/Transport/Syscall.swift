#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a system call that returns -1 on failure, retrying on `EINTR`.
///
/// - Returns: the call's result, or nil when it failed with `EAGAIN`/`EWOULDBLOCK`/`EINPROGRESS` and
///   `wouldBlockIsNil` is set.
/// - Throws: ``SocketError`` with `errno` and `function` for any other failure.
@discardableResult
func syscall<Result: BinaryInteger>(
    _ function: String, wouldBlockIsNil: Bool = false, _ body: () -> Result
) throws(SocketError) -> Result? {
    while true {
        let result = body()
        if result != -1 { return result }
        let code = errno
        if code == EINTR { continue }
        if wouldBlockIsNil && (code == EAGAIN || code == EWOULDBLOCK || code == EINPROGRESS) { return nil }
        throw SocketError(errno: code, function: function)
    }
}

/// Closes a file descriptor, ignoring errors (Linux and Darwin both release it even on `EINTR`).
func closeDescriptor(_ descriptor: Int32) {
    #if canImport(Glibc)
        _ = Glibc.close(descriptor)
    #else
        _ = Darwin.close(descriptor)
    #endif
}
