#if canImport(Glibc)
    import Glibc

    /// The libc `getrandom(2)` wrapper, looked up at run time: Swift's Glibc module does not import sys/random.h.
    enum LinuxGetRandom {
        /// C signature of `ssize_t getrandom(void *buffer, size_t length, unsigned int flags)`.
        typealias Function = @Sendable @convention(c) (UnsafeMutableRawPointer?, Int, UInt32) -> Int

        /// The resolved function, or nil when the C library predates getrandom (glibc < 2.25).
        /// The `dlopen(nil)` handle names the running process itself and deliberately stays open for its lifetime.
        static let function: Function? = {
            guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "getrandom") else { return nil }
            return unsafeBitCast(symbol, to: Function.self)
        }()
    }
#endif
