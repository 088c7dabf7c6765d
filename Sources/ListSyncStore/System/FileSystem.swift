#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Directory-level system calls: kinds of paths, listing, creating, renaming, removing, syncing.
enum FileSystem {
    /// What is at a path.
    enum Kind {
        case missing
        case directory
        case regularFile
        case other
    }

    /// What is at `path` (symbolic links followed).
    static func kind(of path: String) throws(SystemError) -> Kind {
        var info = stat()
        do {
            try systemCall("stat", path: path) { stat(path, &info) }
        } catch  where error.errno == ENOENT {
            return .missing
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFREG: return .regularFile
        default: return .other
        }
    }

    /// The names in directory `path`, without `.` and `..`.
    static func contents(of path: String) throws(SystemError) -> [String] {
        guard let stream = opendir(path) else { throw SystemError(function: "opendir", path: path, errno: errno) }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The whole file at `path`.
    static func readFile(_ path: String) throws(SystemError) -> [UInt8] {
        let file = try FileDescriptor.open(path, flags: O_RDONLY)
        let bytes = try file.readAll()
        try file.close()
        return bytes
    }

    /// Cuts the file at `path` to `length` bytes, durably.
    static func truncateFile(_ path: String, to length: Int) throws(SystemError) {
        let file = try FileDescriptor.open(path, flags: O_WRONLY)
        try file.truncate(to: length)
        try file.sync()
        try file.close()
    }

    /// Creates directory `path`.
    static func makeDirectory(_ path: String) throws(SystemError) {
        try systemCall("mkdir", path: path) { mkdir(path, 0o755) }
    }

    /// Atomically replaces `destination` by `source`.
    static func rename(_ source: String, to destination: String) throws(SystemError) {
        try systemCall("rename", path: source) { systemRename(source, destination) }
    }

    /// Removes file `path`; a missing file is not an error.
    static func remove(_ path: String) throws(SystemError) {
        do {
            try systemCall("unlink", path: path) { unlink(path) }
        } catch  where error.errno == ENOENT {
            return
        }
    }

    /// Creates directory `path` when nothing is there; false when something other than a directory is.
    static func makeDirectoryIfMissing(_ path: String) throws(SystemError) -> Bool {
        switch try kind(of: path) {
        case .missing: try makeDirectory(path)
        case .directory: break
        case .regularFile, .other: return false
        }
        return true
    }

    /// Removes the empty directory `path`.
    static func removeDirectory(_ path: String) throws(SystemError) {
        try systemCall("rmdir", path: path) { rmdir(path) }
    }

    /// Makes the directory's entries (creations, renames, removals) durable.
    static func syncDirectory(_ path: String) throws(SystemError) {
        let directory = try FileDescriptor.open(path, flags: O_RDONLY | O_DIRECTORY)
        try directory.sync()
        try directory.close()
    }

    /// Writes `bytes` to `path` durably and atomically: a temporary file, fsync, rename, fsync of the
    /// directory. When it fails before the rename, the temporary file is removed (best effort) and
    /// `path` is unchanged. `faults` (tests only) makes calls on the temporary file fail.
    static func replaceFile(
        _ path: String, in directory: String, with bytes: [UInt8], faults: FileFaults? = nil
    ) throws(SystemError) {
        let temporary = path + ".tmp"
        do {
            let file = try FileDescriptor.open(temporary, flags: O_WRONLY | O_CREAT | O_TRUNC, faults: faults)
            try file.write(bytes)
            try file.sync()
            try file.close()
            try rename(temporary, to: path)
        } catch {
            try? remove(temporary)
            throw error
        }
        try syncDirectory(directory)
    }
}
