#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed system call (which function, and the `errno` it set), or a failed host name lookup (the
/// `getaddrinfo` error code).
public struct SocketError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The `errno` value (0 for a failed lookup that set none).
    public let errno: Int32
    /// The system call, e.g. `connect`, or `getaddrinfo(phone.local)`.
    public let function: String
    /// For a failed `getaddrinfo`: its error code (an `EAI_` constant), else nil.
    public let addressInfoError: Int32?

    /// The failure of `function` with `errno`, or of a lookup with `addressInfoError`.
    public init(errno: Int32, function: String, addressInfoError: Int32? = nil) {
        self.errno = errno
        self.function = function
        self.addressInfoError = addressInfoError
    }

    /// `connect: Connection refused (errno 111)`, `getaddrinfo(phone.local): Name or service not known
    /// (getaddrinfo error -2)`.
    public var description: String {
        if let code = addressInfoError, code != EAI_SYSTEM {
            return "\(function): \(String(cString: gai_strerror(code))) (getaddrinfo error \(code))"
        }
        return "\(function): \(String(cString: strerror(errno))) (errno \(errno))"
    }
}
