#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A failed system call: which function, on which path, and the `errno` it left.
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The C function that failed, e.g. `open` or `fsync`.
    public let function: String
    /// The file or directory it worked on.
    public let path: String
    /// The `errno` value.
    public let errno: Int32

    /// Creates an error for `function` on `path` with `errno`.
    public init(function: String, path: String, errno: Int32) {
        self.function = function
        self.path = path
        self.errno = errno
    }

    /// `open(/path): No such file or directory (errno 2)`.
    public var description: String {
        "\(function)(\(path)): \(String(cString: strerror(errno))) (errno \(errno))"
    }
}
