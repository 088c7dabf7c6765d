#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Cryptographically secure random bytes from the operating system.
package enum SecureRandom {
    /// Returns `count` random bytes; throws `randomSourceFailure` if the operating system cannot supply them.
    package static func bytes(count: Int) throws(CryptoError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let failure = bytes.withUnsafeMutableBytes { fill($0) }
        if let failure { throw failure }
        return bytes
    }

    /// Fills `buffer` with random bytes; returns the error rather than throwing, as it runs inside a closure.
    private static func fill(_ buffer: UnsafeMutableRawBufferPointer) -> CryptoError? {
        guard let start = buffer.baseAddress, !buffer.isEmpty else { return nil }
        #if canImport(Darwin)
            arc4random_buf(start, buffer.count)
            return nil
        #elseif canImport(Glibc)
            if let getrandom = LinuxGetRandom.function {
                let failure = fillRepeatedly(start, count: buffer.count) { getrandom($0, $1, 0) }
                guard failure == .randomSourceFailure(errno: ENOSYS) else { return failure }
            }
            return fillFromDeviceURandom(start, count: buffer.count)
        #else
            #error("SecureRandom supports Glibc-based Linux and Darwin only.")
        #endif
    }

    #if canImport(Glibc)
        /// Reads `/dev/urandom` into `count` bytes at `start`; the fallback when libc or the kernel lacks getrandom.
        private static func fillFromDeviceURandom(_ start: UnsafeMutableRawPointer, count: Int) -> CryptoError? {
            let descriptor = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return .randomSourceFailure(errno: errno) }
            defer { close(descriptor) }
            return fillRepeatedly(start, count: count) { read(descriptor, $0, $1) }
        }

        /// Calls `source` until `count` bytes at `start` are filled, retrying on EINTR and short reads.
        private static func fillRepeatedly(
            _ start: UnsafeMutableRawPointer, count: Int, from source: (UnsafeMutableRawPointer, Int) -> Int
        ) -> CryptoError? {
            var filled = 0
            while filled < count {
                let result = source(start + filled, count - filled)
                if result > 0 {
                    filled += result
                } else if result < 0 && errno == EINTR {
                    continue
                } else {
                    return .randomSourceFailure(errno: result < 0 ? errno : EIO)
                }
            }
            return nil
        }
    #endif
}
