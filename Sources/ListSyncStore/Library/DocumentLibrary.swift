import ListSync
import Synchronization

/// Many lists kept in one directory, each in its own ``DurableReplica``: create, open, list and delete
/// documents by their ID.
///
/// ```swift
/// let library = try DocumentLibrary<String>(directory: path)
/// let groceries = try library.create("groceries")     // a new, empty durable replica
/// let chores = try library.open("chores")             // one created earlier, with its rows
/// print(library.documentIDs)                          // ["chores", "groceries"]
/// try groceries.close()
/// try library.delete("groceries")                     // only when closed
/// ```
///
/// To sync them, give each store to one ``SyncPeer`` (`SyncPeer(replica:)` for one,
/// `addDocument(_:settings:)` for the others, each with its own secret).
///
/// One library object at a time owns the directory (a second, in this process or another, throws
/// ``StoreError/locked(path:)``); each document's store is locked on its own, so a document open
/// elsewhere is neither opened twice nor deleted. Creating and deleting survive a crash at any point:
/// a document is there with its ID, or not at all. An entry the library cannot read (a file it never
/// wrote, a document whose ID file is damaged) is kept as it is and reported by ``unreadable``; the
/// library never deletes it.
public final class DocumentLibrary<Element: Codable & Sendable>: Sendable {
    /// The library's directory.
    public let directory: String
    /// How each document's store is opened, unless ``open(_:options:)`` says otherwise.
    public let options: StoreOptions
    /// The directory's lock, until ``close()``.
    private let lock: Mutex<FileLock?>

    /// Opens the library in `directory`, creating the directory and the library on first use, and
    /// finishes what a crash interrupted (a create before its document existed, a delete).
    /// - Throws: ``StoreError/notALibrary(path:)`` for a path that holds other files;
    ///   ``StoreError/locked(path:)`` when another library object owns it; ``StoreError/system(_:)``.
    public init(directory: String, options: StoreOptions = StoreOptions()) throws(StoreError) {
        let layout = LibraryDirectory(path: directory)
        self.directory = directory
        self.options = options
        lock = Mutex(try layout.lockAndPrepare())
    }

    deinit { lock.withLock { lock in try? lock?.release() } }

    /// The IDs of the documents, in ascending order of their UTF-8 bytes.
    /// - Throws: ``StoreError/closed`` after ``close()``, or ``StoreError/system(_:)`` when the directory
    ///   cannot be listed.
    public var documentIDs: [String] {
        get throws(StoreError) {
            try withLibrary { layout throws(StoreError) in try layout.scan().documents.map(\.id) }
                .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        }
    }

    /// What the directory holds besides its documents and its own files: each kept as it is.
    /// - Throws: ``StoreError/closed`` after ``close()``, or ``StoreError/system(_:)``.
    public var unreadable: [UnreadableEntry] {
        get throws(StoreError) { try withLibrary { layout throws(StoreError) in try layout.scan().unreadable } }
    }

    /// Creates the document `id` and returns its store, empty and open.
    /// - Throws: ``StoreError/documentExists(_:)``, ``StoreError/invalidDocumentID(_:)``, or what creating
    ///   its directory or its store threw; the document is not created then (unless undoing failed too:
    ///   then it is listed, empty, and ``open(_:options:)`` creates its store).
    public func create(_ id: String) throws(StoreError) -> DurableReplica<Element> {
        try withLibrary { layout throws(StoreError) in
            let document = try layout.document(id)
            guard try !document.exists() else { throw .documentExists(id) }
            try layout.add(document)
            do throws(StoreError) {
                return try DurableReplica(directory: document.storePath, options: options)
            } catch {
                try? layout.delete(document)
                throw error
            }
        }
    }

    /// Opens the store of document `id`, as ``DurableReplica/init(directory:options:)`` opens a directory
    /// (recovery included), with `options` or else the library's.
    /// - Throws: ``StoreError/noSuchDocument(_:)``, ``StoreError/invalidDocumentID(_:)``,
    ///   ``StoreError/locked(path:)`` when it is open already, or what opening the store throws.
    public func open(_ id: String, options: StoreOptions? = nil) throws(StoreError) -> DurableReplica<Element> {
        try withLibrary { layout throws(StoreError) in
            let document = try layout.document(id)
            guard try document.exists() else { throw .noSuchDocument(id) }
            return try DurableReplica(directory: document.storePath, options: options ?? self.options)
        }
    }

    /// Deletes document `id` and everything in its store, durably; its store must be closed.
    /// - Throws: ``StoreError/noSuchDocument(_:)``; ``StoreError/locked(path:)`` when its store is open
    ///   (nothing is deleted); ``StoreError/notAReplica(path:)`` when its directory holds files the library
    ///   never writes, or damaged files that salvage recovery set aside (`*.damaged-<n>`): nothing is
    ///   deleted, they are kept for you to look at (move them away to delete the document).
    public func delete(_ id: String) throws(StoreError) {
        try withLibrary { layout throws(StoreError) in
            let document = try layout.document(id)
            guard try document.exists() else { throw .noSuchDocument(id) }
            try layout.delete(document)
        }
    }

    /// Releases the directory; the stores opened from it stay open. Later calls do nothing.
    /// - Throws: ``StoreError/system(_:)`` when the lock cannot be released.
    public func close() throws(StoreError) {
        try lock.withLock { lock throws(StoreError) in
            defer { lock = nil }
            try systemStep { () throws(SystemError) in try lock?.release() }
        }
    }

    /// Runs `body` on the directory's layout while the library is open.
    private func withLibrary<Result>(
        _ body: (LibraryDirectory) throws(StoreError) -> Result
    ) throws(StoreError) -> Result {
        try lock.withLock { lock throws(StoreError) in
            guard lock != nil else { throw .closed }
            return try body(LibraryDirectory(path: directory))
        }
    }
}

/// Something in a ``DocumentLibrary``'s directory that is not a readable document, kept as it is.
public struct UnreadableEntry: Hashable, Sendable, CustomStringConvertible {
    /// Its path.
    public let path: String
    /// What is wrong with it.
    public let reason: String

    /// `PATH: REASON`.
    public var description: String { "\(path): \(reason)" }
}
