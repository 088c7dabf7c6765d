import ListSync
import ListSyncNetwork
import ListSyncStore
import Synchronization

/// Many lists saved in one directory and synced by one peer: a ``DocumentLibrary`` whose documents, each
/// with its own secret, are synced over the same listeners and connections while they are open.
///
/// ```swift
/// let library = try SyncedLibrary<String>(directory: path)
/// try library.listen(on: Endpoint(host: "0.0.0.0", port: 7000))
/// let groceries = try library.open(SyncSettings(document: "groceries", secret: groceriesSecret))
/// try groceries.connect(to: laptop)
/// try groceries.edit { $0.append("Milk") }           // logged, then sent
/// for await event in try groceries.changeEvents() { ... }
/// try library.close("groceries")                     // stops syncing it; its store is closed
/// try library.stop()
/// ```
///
/// No document is special: any may be created, opened, closed and deleted at any time. The secrets are
/// the app's (its keychain): the library never writes them, so ``open(_:)`` takes each document's
/// settings every time. Every method is thread-safe.
public final class SyncedLibrary<Element: Codable & Sendable>: Sendable {
    /// The stores.
    private let library: DocumentLibrary<Element>
    /// The peer that syncs the open documents; it has no first document, and is never handed out.
    private let peer: SyncPeer<DurableReplica<Element>>
    /// The open documents, by ID; nil once stopped.
    private let open = Mutex<[String: SyncDocument<DurableReplica<Element>>]?>([:])

    /// Opens the library in `directory` (created on first use; see ``DocumentLibrary``) and starts its
    /// peer with `configuration` (timeouts, discovery, log; its `sync` is not used). Nothing is synced
    /// until a document is opened, and nothing reaches other devices until the library listens or a
    /// document connects.
    /// - Throws: ``StoreError`` when the directory cannot be used; ``SocketError`` when the peer cannot
    ///   start.
    public init(
        directory: String, configuration: PeerConfiguration = PeerConfiguration(),
        options: StoreOptions = StoreOptions()
    ) throws {
        let library = try DocumentLibrary<Element>(directory: directory, options: options)
        do {
            peer = try SyncPeer(configuration: configuration)
        } catch {
            try? library.close()
            throw error
        }
        self.library = library
    }

    // A library dropped without `stop()` stops its peer and closes its stores, so that its documents
    // can be opened again.
    deinit { try? stop() }

    /// The library's directory.
    public var directory: String { library.directory }

    /// The IDs of every document in the library, open or not, in ascending order of their UTF-8 bytes.
    /// - Throws: ``StoreError``.
    public var documentIDs: [String] { get throws(StoreError) { try library.documentIDs } }

    /// What the directory holds that the library cannot read, kept as it is (see ``DocumentLibrary``).
    /// - Throws: ``StoreError``.
    public var unreadable: [UnreadableEntry] { get throws(StoreError) { try library.unreadable } }

    /// The handles of the documents open now, by ID.
    public var documents: [SyncDocument<DurableReplica<Element>>] {
        open.withLock { open in
            (open ?? [:]).sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map(\.value)
        }
    }

    /// Creates the document of `settings` (its ID and secret), empty, and syncs it from now on.
    /// - Throws: ``StoreError/documentExists(_:)`` and the other errors of ``DocumentLibrary/create(_:)``;
    ///   ``StoreError/closed`` once stopped.
    public func create(_ settings: SyncSettings) throws -> SyncDocument<DurableReplica<Element>> {
        try sync(settings) { try library.create(settings.documentName) }
    }

    /// Opens the document of `settings` (its ID and secret) with its rows and syncs it from now on; when
    /// it is open already with the same settings, returns its handle.
    /// - Throws: ``StoreError/noSuchDocument(_:)`` and the other errors of
    ///   ``DocumentLibrary/open(_:options:)``; ``SyncPeerError/documentAlreadySynced(_:)`` when it is
    ///   open with other settings (another secret); ``StoreError/closed`` once stopped.
    public func open(_ settings: SyncSettings) throws -> SyncDocument<DurableReplica<Element>> {
        if let document = open.withLock({ $0?[settings.documentName] }) {
            guard document.settings == settings else {
                throw SyncPeerError.documentAlreadySynced(settings.documentName)
            }
            return document
        }
        return try sync(settings) { try library.open(settings.documentName) }
    }

    /// Stops syncing document `id` and closes its store after compacting it (its connections close with
    /// error 18; its handle throws ``SyncPeerError/documentRemoved(_:)`` from now on). Does nothing when
    /// it is not open.
    /// - Throws: ``StoreError`` when the store cannot be compacted or closed cleanly (its data is safe:
    ///   compaction replaces the log only once the snapshot is durable); it is closed either way.
    public func close(_ id: String) throws(StoreError) {
        guard let document = open.withLock({ $0?.removeValue(forKey: id) }) else { return }
        try peer.removeDocument(document)?.compactAndClose()
    }

    /// Deletes document `id` and everything in its store, closing it first when open.
    /// - Throws: the errors of ``close(_:)`` and of ``DocumentLibrary/delete(_:)``.
    public func delete(_ id: String) throws(StoreError) {
        try close(id)
        try library.delete(id)
    }

    /// Listens on `endpoint` for peers of every open document, as ``SyncPeer/listen(on:)`` does.
    /// - Throws: ``SocketError``.
    @discardableResult
    public func listen(on endpoint: Endpoint) throws(SocketError) -> Endpoint { try peer.listen(on: endpoint) }

    /// Every open connection and dialed endpoint, with the document each one syncs.
    public var connections: [PeerConnection] { peer.connections }

    /// Every listener.
    public var listeners: [PeerListener] { peer.listeners }

    /// Reconnects at once, as ``SyncPeer/reconnectNow()`` does.
    public func reconnectNow() { peer.reconnectNow() }

    /// Stops dialing `endpoint` for every document and closes those connections.
    public func disconnect(from endpoint: Endpoint) { peer.disconnect(from: endpoint) }

    /// Stops the peer (closing every connection and listener), compacts and closes every open store, and
    /// releases the directory. Later calls do nothing.
    /// - Throws: the first ``StoreError`` of a store that could not be compacted or closed cleanly, after
    ///   trying every store.
    public func stop() throws(StoreError) {
        let documents = open.withLock { open in
            defer { open = nil }
            return open
        }
        guard let documents else { return }
        peer.stop()
        var failure: StoreError?
        for document in documents.values {
            do throws(StoreError) {
                try peer.removeDocument(document)?.compactAndClose()
            } catch {
                failure = failure ?? error
            }
        }
        do throws(StoreError) {
            try library.close()
        } catch {
            failure = failure ?? error
        }
        if let failure { throw failure }
    }

    /// Opens a store with `makeStore` and syncs it as the document of `settings`.
    private func sync(
        _ settings: SyncSettings, _ makeStore: () throws -> DurableReplica<Element>
    ) throws -> SyncDocument<DurableReplica<Element>> {
        try open.withLock { open in
            guard open != nil else { throw StoreError.closed }
            let store = try makeStore()
            do {
                let document = try peer.addDocument(store, settings: settings)
                open?[settings.documentName] = document
                return document
            } catch {
                try? store.close()
                throw error
            }
        }
    }
}
