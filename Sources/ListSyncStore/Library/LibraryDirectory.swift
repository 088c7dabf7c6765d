import ListSyncCrypto

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files of a ``DocumentLibrary``'s directory, and the steps that change them durably.
///
/// Layout: `LIBRARY` (the marker: "LSLB" and the layout version, 1), `LOCK`, and one directory per
/// document, named by the first 16 bytes of SHA-256 of its ID in hexadecimal (safe on every file system
/// whatever the ID holds), with the ID in its file `id` and the document's replica directory `store`.
/// A document being created is `NAME.new` until it is renamed into place; one being deleted is renamed
/// to `NAME.deleting` first, so a crash leaves either the whole document or a leftover that the next
/// open finishes removing.
struct LibraryDirectory {
    /// The marker file's name.
    static let markerName = "LIBRARY"
    /// The marker's contents: magic and layout version.
    static let marker = Array("LSLB".utf8) + [1]
    /// The library's own files.
    static let ownNames: Set = [markerName, markerName + ".tmp", ReplicaDirectory.lockName]
    /// The suffix of a document directory being created.
    static let creatingSuffix = ".new"
    /// The suffix of a document directory being deleted.
    static let deletingSuffix = ".deleting"

    /// One document's paths.
    struct Document {
        /// Its ID.
        let id: String
        /// Its directory.
        let path: String
        /// Its ID file.
        var idPath: String { path + "/id" }
        /// Its replica directory.
        var storePath: String { path + "/store" }

        /// Whether the document is there.
        /// - Throws: ``StoreError/corrupt(path:offset:reason:)`` when its directory is there but does not
        ///   hold this ID (a damaged ID file): it is kept, and neither created over nor opened.
        func exists() throws(StoreError) -> Bool {
            switch try systemStep({ () throws(SystemError) in try FileSystem.kind(of: path) }) {
            case .missing: return false
            case .directory:
                guard (try? FileSystem.readFile(idPath)) == Array(id.utf8) else {
                    throw .corrupt(path: idPath, offset: 0, reason: "the document's ID file is missing or damaged")
                }
                return true
            case .regularFile, .other:
                throw .corrupt(path: path, offset: 0, reason: "a document's place holds something else")
            }
        }
    }

    /// The directory's path.
    let path: String

    /// The path of `name` inside the directory.
    func file(_ name: String) -> String { path + "/" + name }

    /// The paths of document `id`.
    /// - Throws: ``StoreError/invalidDocumentID(_:)`` for an empty ID or one over 255 bytes.
    func document(_ id: String) throws(StoreError) -> Document {
        guard (1...255).contains(id.utf8.count) else { throw .invalidDocumentID(id) }
        let digest = SHA256.hash(Array(id.utf8)).prefix(16)
        let name = digest.map { byte in String(byte >> 4, radix: 16) + String(byte & 0x0F, radix: 16) }.joined()
        return Document(id: id, path: file(name))
    }

    /// Takes the directory's lock, creating the directory and its marker when missing or empty, and
    /// finishes the creates and deletes a crash interrupted (those it cannot finish are left for
    /// ``scan()`` to report).
    /// - Throws: ``StoreError/notALibrary(path:)``, ``StoreError/locked(path:)``, a damaged or newer marker.
    func lockAndPrepare() throws(StoreError) -> FileLock {
        guard try systemStep({ () throws(SystemError) in try FileSystem.makeDirectoryIfMissing(path) }) else {
            throw .notALibrary(path: path)
        }
        let names = try systemStep { () throws(SystemError) in try FileSystem.contents(of: path) }
        let hasMarker = names.contains(Self.markerName)
        // Nothing is written into a directory of other files, not even the lock file.
        guard hasMarker || names.allSatisfy(Self.ownNames.contains) else { throw .notALibrary(path: path) }
        let lockPath = file(ReplicaDirectory.lockName)
        guard let lock = try systemStep({ () throws(SystemError) in try FileLock(directory: path, lockFile: lockPath) })
        else {
            throw .locked(path: path)
        }
        do throws(StoreError) {
            try checkOrWriteMarker(exists: hasMarker)
            for name in names where name.hasSuffix(Self.creatingSuffix) || name.hasSuffix(Self.deletingSuffix) {
                try? removeLeftover(file(name))
            }
        } catch {
            try? lock.release()
            throw error
        }
        return lock
    }

    /// Checks the marker, or writes it in a new library.
    private func checkOrWriteMarker(exists: Bool) throws(StoreError) {
        let markerPath = file(Self.markerName)
        guard exists else {
            return try systemStep { () throws(SystemError) in
                try FileSystem.replaceFile(markerPath, in: path, with: Self.marker)
            }
        }
        let bytes = try systemStep { () throws(SystemError) in try FileSystem.readFile(markerPath) }
        guard bytes.count == Self.marker.count, bytes.prefix(4).elementsEqual(Self.marker.prefix(4)) else {
            throw .corrupt(path: markerPath, offset: 0, reason: "not a document library marker")
        }
        guard bytes[4] == Self.marker[4] else { throw .unsupportedFormatVersion(path: markerPath, version: bytes[4]) }
    }

    /// Adds `document`'s directory with its ID file, durably: built as `NAME.new`, then renamed into place.
    func add(_ document: Document) throws(StoreError) {
        let staging = document.path + Self.creatingSuffix
        try systemStep { () throws(SystemError) in
            if try FileSystem.kind(of: staging) != .missing { try removeLeftover(staging) }
            try FileSystem.makeDirectory(staging)
            try FileSystem.replaceFile(staging + "/id", in: staging, with: Array(document.id.utf8))
            try FileSystem.rename(staging, to: document.path)
            try FileSystem.syncDirectory(path)
        }
    }

    /// Deletes `document`, durably: renamed to `NAME.deleting` (the point after which it is gone), then
    /// its files removed.
    /// - Throws: ``StoreError/locked(path:)`` when its store is open, ``StoreError/notAReplica(path:)``
    ///   when it holds files the library never writes; nothing is deleted then.
    func delete(_ document: Document) throws(StoreError) {
        guard try Self.holdsOnlyOwnFiles(document.path) else { throw .notAReplica(path: document.path) }
        let store = document.storePath
        var storeLock: FileLock?
        if try systemStep({ () throws(SystemError) in try FileSystem.kind(of: store) }) == .directory {
            storeLock = try systemStep { () throws(SystemError) in
                try FileLock(directory: store, lockFile: store + "/" + ReplicaDirectory.lockName)
            }
            guard storeLock != nil else { throw .locked(path: store) }
        }
        let doomed = document.path + Self.deletingSuffix
        try systemStep { () throws(SystemError) in
            if try FileSystem.kind(of: doomed) != .missing { try removeLeftover(doomed) }
            try FileSystem.rename(document.path, to: doomed)
            try FileSystem.syncDirectory(path)
        }
        // Deleted from here on: what is left is removed now, or when the library is next opened.
        try? removeLeftover(doomed)
        try? storeLock?.release()
    }

    /// Whether the document directory at `documentPath` holds only what the library and its store
    /// write (its ID file, its store directory of replica files) and nothing the store could not read:
    /// a damaged file that salvage set aside (`*.damaged-<n>`) is kept for its owner to look at.
    private static func holdsOnlyOwnFiles(_ documentPath: String) throws(StoreError) -> Bool {
        try systemStep { () throws(SystemError) in
            let names = try FileSystem.contents(of: documentPath)
            guard names.allSatisfy(["id", "id.tmp", "store"].contains) else { return false }
            guard names.contains("store") else { return true }
            return try FileSystem.contents(of: documentPath + "/store").allSatisfy { name in
                ReplicaDirectory.isReplicaFile(name) && !ReplicaDirectory.isSetAside(name)
            }
        }
    }

    /// Removes an interrupted create or delete at `leftover`, when it holds only the library's and the
    /// store's own files; otherwise leaves it and throws.
    private func removeLeftover(_ leftover: String) throws(SystemError) {
        guard (try? Self.holdsOnlyOwnFiles(leftover)) == true else {
            throw SystemError(function: "remove leftover (it holds other files)", path: leftover, errno: ENOTEMPTY)
        }
        let store = leftover + "/store"
        if try FileSystem.kind(of: store) == .directory {
            for name in try FileSystem.contents(of: store) { try FileSystem.remove(store + "/" + name) }
            try FileSystem.removeDirectory(store)
        }
        for name in ["id", "id.tmp"] { try FileSystem.remove(leftover + "/" + name) }
        try FileSystem.removeDirectory(leftover)
        try FileSystem.syncDirectory(path)
    }

    /// The documents the directory holds, and everything else in it but the library's own files.
    func scan() throws(StoreError) -> (documents: [Document], unreadable: [UnreadableEntry]) {
        let names = try systemStep { () throws(SystemError) in try FileSystem.contents(of: path) }
        var documents: [Document] = []
        var unreadable: [UnreadableEntry] = []
        for name in names.sorted() where !Self.ownNames.contains(name) {
            let entry = file(name)
            if name.hasSuffix(Self.creatingSuffix) || name.hasSuffix(Self.deletingSuffix) {
                unreadable.append(
                    UnreadableEntry(
                        path: entry,
                        reason: "an interrupted create or delete that holds files the library did not write"
                    ))
                continue
            }
            let id = (try? FileSystem.readFile(entry + "/id")).flatMap { String(validating: $0, as: UTF8.self) }
            guard let id, let document = try? document(id), document.path == entry else {
                let named =
                    name.count == 32
                    && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
                unreadable.append(
                    UnreadableEntry(
                        path: entry,
                        reason: named ? "a document whose ID file is missing or damaged" : "not written by the library")
                )
                continue
            }
            documents.append(document)
        }
        return (documents, unreadable)
    }
}
