#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a system call, retrying while it fails with `EINTR`, and turns any other failure (a negative
/// result) into a ``SystemError`` carrying `errno`, the function name and the path.
/// - Returns: the call's non-negative result.
@discardableResult
func systemCall<Result: BinaryInteger>(
    _ function: String, path: String, _ call: () -> Result
) throws(SystemError) -> Result {
    while true {
        let result = call()
        if result >= 0 { return result }
        let code = errno
        if code == EINTR { continue }
        throw SystemError(function: function, path: path, errno: code)
    }
}
