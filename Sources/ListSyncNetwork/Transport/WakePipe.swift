#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A non-blocking pipe that interrupts the event loop's `poll` when another thread queued work.
struct WakePipe {
    /// The end the loop polls.
    let readEnd: Int32
    /// The end other threads write one byte to.
    let writeEnd: Int32

    /// Opens the pipe.
    init() throws(SocketError) {
        var ends: [Int32] = [-1, -1]
        try syscall("pipe") { pipe(&ends) }
        readEnd = ends[0]
        writeEnd = ends[1]
        for end in ends {
            let flags = try syscall("fcntl(F_GETFL)") { fcntl(end, F_GETFL) } ?? 0
            try syscall("fcntl(F_SETFL)") { fcntl(end, F_SETFL, flags | O_NONBLOCK) }
        }
    }

    /// Makes the next (or current) poll return; a full pipe already guarantees that.
    func wake() {
        var byte: UInt8 = 1
        _ = try? syscall("write(wake)", wouldBlockIsNil: true) { write(writeEnd, &byte, 1) }
    }

    /// Empties the pipe.
    func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while let count = try? syscall("read(wake)", wouldBlockIsNil: true, { read(readEnd, &bytes, bytes.count) }),
            count > 0
        {}
    }

    /// Closes both ends; call once, when the loop has ended.
    func close() {
        closeDescriptor(readEnd)
        closeDescriptor(writeEnd)
    }
}
