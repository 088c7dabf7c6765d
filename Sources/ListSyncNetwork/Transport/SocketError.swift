#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed system call: which function, and the `errno` it set.
public struct SocketError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The `errno` value.
    public let errno: Int32
    /// The system call, e.g. `connect`.
    public let function: String

    /// The failure of `function` with `errno`.
    public init(errno: Int32, function: String) {
        self.errno = errno
        self.function = function
    }

    /// `connect: Connection refused (errno 111)`.
    public var description: String { "\(function): \(String(cString: strerror(errno))) (errno \(errno))" }
}
