import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which process holds the lock of a replica directory, for the "in use" error.
enum LockHolder {
    /// The process holding the `flock` on `directory/LOCK`, found in `/proc/locks` (Linux); nil when
    /// it cannot be told.
    /// - Complexity: O(l) for l locks held on the machine.
    static func process(lockingReplicaIn directory: String) -> Int32? {
        var info = stat()
        guard stat(directory + "/LOCK", &info) == 0,
            let locks = try? String(contentsOfFile: "/proc/locks", encoding: .utf8)
        else { return nil }
        // `1: FLOCK  ADVISORY  WRITE 4242 08:01:1234567 0 EOF`: pid, then device:inode.
        for line in locks.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 6, fields[1] == "FLOCK", let pid = Int32(fields[4]),
                fields[5].split(separator: ":").last == Substring(String(info.st_ino))
            else { continue }
            return pid
        }
        return nil
    }
}
