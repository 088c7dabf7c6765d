import ListSync

/// The files of a replica directory and what a replica directory may contain.
struct ReplicaDirectory {
    /// The lock file's name.
    static let lockName = "LOCK"

    /// The directory's path.
    let path: String

    /// The path of `name` inside the directory.
    func file(_ name: String) -> String { path + "/" + name }

    /// Whether a replica ever writes a file named `name`.
    static func isReplicaFile(_ name: String) -> Bool {
        let names = [lockName, IdentityFile.name, SnapshotFile.name]
        return names.contains(name) || names.contains { name == $0 + ".tmp" }
            || LogSegment.number(fromFileName: name) != nil || isSetAside(name)
    }

    /// Whether `name` is a damaged file that salvage renamed aside (`<name>.damaged-<n>`).
    static func isSetAside(_ name: String) -> Bool {
        let marker = ".damaged-"
        let segment = String(name.prefix(LogSegment.prefix.count + 16))
        let bases =
            [IdentityFile.name, SnapshotFile.name] + (LogSegment.number(fromFileName: segment) != nil ? [segment] : [])
        return bases.contains { name.hasPrefix($0 + marker) }
    }

    /// The log segment numbers present, ascending.
    func segmentNumbers() throws(SystemError) -> [UInt64] {
        try FileSystem.contents(of: path).compactMap(LogSegment.number(fromFileName:)).sorted()
    }

    /// Removes the log segments numbered below `number`, durably.
    func removeSegments(below number: UInt64) throws(SystemError) {
        let stale = try segmentNumbers().filter { $0 < number }
        guard !stale.isEmpty else { return }
        for segment in stale { try FileSystem.remove(file(LogSegment.fileName(segment))) }
        try FileSystem.syncDirectory(path)
    }

    /// Takes the directory's lock, creating the directory when missing.
    /// - Throws: ``StoreError/notAReplica(path:)`` when the path is not a directory or holds files a
    ///   replica never writes (and no identity file), ``StoreError/locked(path:)`` when it is in use.
    /// - Returns: the lock and whether the directory has an identity file.
    func lockAndInspect() throws(StoreError) -> (lock: FileLock, hasIdentity: Bool) {
        guard try systemStep({ () throws(SystemError) in try FileSystem.makeDirectoryIfMissing(path) }) else {
            throw .notAReplica(path: path)
        }
        let names = try systemStep { () throws(SystemError) in try FileSystem.contents(of: path) }
        let hasIdentity = names.contains(IdentityFile.name)
        let hasData = names.contains { $0 == SnapshotFile.name || LogSegment.number(fromFileName: $0) != nil }
        if !hasIdentity && (hasData || !names.allSatisfy(Self.isReplicaFile)) { throw .notAReplica(path: path) }
        let lockPath = file(Self.lockName)
        guard let lock = try systemStep({ () throws(SystemError) in try FileLock(directory: path, lockFile: lockPath) })
        else {
            throw .locked(path: path)
        }
        return (lock, hasIdentity)
    }
}
