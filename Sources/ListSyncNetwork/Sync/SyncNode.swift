import ListSync
import ListSyncCrypto

/// The transport-free sync core: one replica, any number of connections, bytes in and bytes out.
///
/// A transport opens a connection with ``open(_:role:nonce:)``, feeds what it reads to
/// ``receive(_:on:)``, writes what ``output(for:limit:)`` returns, and calls ``close(_:because:)`` on
/// error or end of stream. The node runs the handshake, sends each peer what it lacks after their version
/// vectors are exchanged, streams local changes live, relays what peers send to the other peers once, and
/// bounds each connection's queue (Protocol.md section 2.7). Every change to the rows, a local edit
/// or a merge, is posted to ``changeFeed`` as it happens; the peers' presence is exchanged beside the
/// changes and posted to ``presenceFeed`` (``setPresence(_:wallClockMilliseconds:now:)``). It does no
/// I/O and reads no clock: the transport gives the time with ``tickPresence(now:)``.
/// Not thread-safe: keep it inside one actor or lock.
public final class SyncNode<Replica: SyncReplica> {
    /// The replica being synced.
    public let replica: Replica
    /// Document, secret and limits.
    public let settings: SyncSettings
    /// Counters since creation.
    public private(set) var statistics = SyncStatistics()
    /// Every change to the replica's rows made through this node, local or merged, in order.
    public let changeFeed = ChangeFeed<Replica.Value>()
    /// Every change of the other peers' presences, whole (``presences``).
    public let presenceFeed = PresenceFeed()
    /// Open connections.
    var sessions: [ConnectionID: SyncSession] = [:]
    /// The other peers' presence and this peer's own.
    var presence = PresenceState()
    /// The version vector before the first local edit not streamed yet (nil when all are streamed).
    private var unpublishedSince: VersionVector?

    /// A node syncing `replica` with the peers of `settings.document`.
    public init(replica: Replica, settings: SyncSettings) {
        self.replica = replica
        self.settings = settings
    }

    /// This replica's identity, sent in HELLO.
    public var replicaID: ReplicaID { replica.replicaID }

    /// Open connections, authenticated or not.
    public var connections: [ConnectionID] { sessions.keys.sorted() }

    /// Connections whose version vectors have been exchanged: changes stream live on them.
    public var liveConnectionCount: Int { sessions.values.count { $0.isLive } }

    /// Whether connection `id` exchanged version vectors, so that changes stream live on it.
    public func isLive(_ id: ConnectionID) -> Bool { sessions[id]?.isLive ?? false }

    /// Whether the handshake of connection `id` succeeded.
    public func isAuthenticated(_ id: ConnectionID) -> Bool { sessions[id]?.channel.isAuthenticated ?? false }

    /// Bytes received on `id` that do not form a complete frame yet, and the length of that frame.
    public func partialFrame(on id: ConnectionID) -> (received: Int, expected: Int)? {
        sessions[id]?.channel.partialFrame
    }

    /// Complete frames received on connection `id` so far.
    public func framesReceived(on id: ConnectionID) -> Int { sessions[id]?.channel.framesReceived ?? 0 }

    /// Queues a HEARTBEAT on connection `id` once it is authenticated (call when it has been quiet a while).
    public func queueHeartbeat(on id: ConnectionID) {
        guard let session = sessions[id], session.channel.isAuthenticated else { return }
        session.enqueue(.heartbeat)
    }

    /// Starts a connection; `nonce` must be 32 fresh random bytes (fixed ones only in tests).
    public func open(_ id: ConnectionID, role: ConnectionRole, nonce: [UInt8]) {
        precondition(sessions[id] == nil, "connection \(id) is already open")
        sessions[id] = SyncSession(
            channel: SecureChannel(role: role, replica: replicaID, settings: settings, nonce: nonce))
    }

    /// Forgets connection `id` and returns the CLOSE frame that tells the peer why (send it if you can).
    @discardableResult
    public func close(_ id: ConnectionID, because error: SyncError) -> [UInt8] {
        guard let session = sessions.removeValue(forKey: id) else { return [] }
        statistics.closedByCode[error.code, default: 0] += 1
        return error.isToldToPeer ? session.channel.closeFrame(for: error) : []
    }

    /// Consumes bytes read from connection `id`; returns the peer's replica when they complete the handshake.
    ///
    /// - Throws: ``SyncError`` when the peer misbehaves; close the connection then. The replica is untouched
    ///   by a rejected change set.
    @discardableResult
    public func receive(_ bytes: some Collection<UInt8>, on id: ConnectionID) throws(SyncError) -> ReplicaID? {
        guard let session = sessions[id] else { return nil }
        publishLocalChanges()
        statistics.bytesReceived += bytes.count
        session.channel.receive(bytes)
        var authenticatedPeer: ReplicaID?
        while let event = try session.channel.nextEvent() {
            switch event {
            case .authenticated(let peer):
                statistics.connectionsAuthenticated += 1
                session.peer = peer
                session.enqueue(.vector(replica.versionVector))
                startPresence(on: session)
                authenticatedPeer = peer
            case .message(let message):
                try handle(message, from: session, id: id)
            }
        }
        return authenticatedPeer
    }

    /// Whether ``output(for:limit:)`` has something for connection `id`.
    public func hasOutput(for id: ConnectionID) -> Bool {
        guard let session = sessions[id] else { return false }
        if !session.channel.pendingHandshakeBytes.isEmpty { return true }
        guard session.channel.isAuthenticated else { return false }
        return session.hasQueuedMessages || session.ackPending || !session.pendingPresence.isEmpty
            || (session.isLive && (session.needsResync || unpublishedSince != nil))
    }

    /// The next bytes to write to connection `id`: whole frames, about `limit` bytes or one frame if larger.
    ///
    /// Pull only as fast as the connection drains: what is not pulled stays in the bounded queue.
    public func output(for id: ConnectionID, limit: Int) -> [UInt8] {
        guard let session = sessions[id] else { return [] }
        publishLocalChanges()
        var bytes = session.channel.takeHandshakeBytes()
        while bytes.count < limit, session.channel.isAuthenticated, let message = nextMessage(for: session) {
            bytes += session.channel.seal(message)
        }
        statistics.bytesSent += bytes.count
        return bytes
    }

    /// Runs `body` on the replica's list as one transaction (``SyncReplica/commit(_:)``): what it changed
    /// is posted to ``changeFeed`` as one local event and streams to every live peer with the next output.
    ///
    /// Edits made between two calls of ``output(for:limit:)`` or ``receive(_:on:)`` travel as one change
    /// set, `changes(since:)` the version vector before the first of them, so a burst of edits costs one
    /// scan of the replica. Received change sets are merged only after pending local edits are queued,
    /// so a local change set never carries a peer's operations back.
    /// - Throws: what the replica's `commit` threw (a store that could not log the change); nothing of
    ///   it was applied then.
    /// - Complexity: `body`'s plus O(k log n) for the event of k rows; the next output costs O(n) for n rows.
    @discardableResult
    public func edit<Result>(
        _ body: (ReplicatedList<Replica.Value>) -> Result
    ) throws(Replica.CommitFailure) -> Result {
        if unpublishedSince == nil { unpublishedSince = replica.versionVector }
        var result: Result?
        let change = try replica.commit { list in result = body(list) }
        post(change, origin: .local)
        refreshPendingDrops()
        // `commit` runs `body` exactly once before it returns.
        return result!
    }

    /// Posts `change`, which the replica just made, to ``changeFeed``.
    private func post(_ change: ListChange, origin: ChangeOrigin) {
        guard !change.isEmpty, changeFeed.hasSubscribers else { return }
        replica.read { list in changeFeed.post(change, origin: origin, in: list) }
    }

    /// Queues the pending local edits for every live connection now (output and receive also do).
    public func publishLocalChanges() {
        guard let base = unpublishedSince else { return }
        unpublishedSince = nil
        // A connection that becomes live later gets these edits in its catch-up.
        guard sessions.values.contains(where: \.isLive) else { return }
        let changes = replica.changes(since: base)
        if !changes.isEmpty { broadcast(encodedParts(of: changes), except: nil) }
    }

    /// The most bytes of a change set that one frame this side sends carries (type byte and tag aside).
    var frameBudget: Int { settings.maximumFrameByteCount - 1 - ChaChaPoly.tagByteCount }

    /// `changes` encoded in parts that each fit one frame (a part of a single larger row travels in pieces).
    private func encodedParts(of changes: ChangeSet) -> [[UInt8]] {
        changes.encodedSplit(byteBudget: frameBudget)
    }

    /// Applies one authenticated message from connection `id`.
    private func handle(_ message: SyncMessage, from session: SyncSession, id: ConnectionID) throws(SyncError) {
        switch message {
        case .piece, .changes: break
        default:
            guard !session.isReceivingPieces else {
                throw .unexpectedMessage(type: message.type.rawValue, phase: "receiving a change set in pieces")
            }
        }
        switch message {
        case .vector(let vector):
            guard !session.isLive else { throw .unexpectedMessage(type: message.type.rawValue, phase: "live") }
            session.isLive = true
            session.peerVector = vector
            let missing = replica.changes(since: vector)
            if !missing.isEmpty { startCatchUp(missing, on: session) }
        case .ack(let vector):
            guard session.isLive else { throw .unexpectedMessage(type: message.type.rawValue, phase: "before VECTOR") }
            session.peerVector = session.peerVector.union(vector)
        case .piece(let bytes):
            guard session.isLive else { throw .unexpectedMessage(type: message.type.rawValue, phase: "before VECTOR") }
            try session.receivePiece(bytes, limit: settings.maximumChangeSetByteCount)
        case .changes(let bytes):
            guard session.isLive else { throw .unexpectedMessage(type: message.type.rawValue, phase: "before VECTOR") }
            try merge(
                session.completeChangeSet(bytes, limit: settings.maximumChangeSetByteCount), from: session, id: id)
        case .heartbeat:
            break
        case .presence(let updates):
            guard session.speaksPresence else {
                throw .unexpectedMessage(type: message.type.rawValue, phase: "speaking version 5")
            }
            guard session.isLive else { throw .unexpectedMessage(type: message.type.rawValue, phase: "before VECTOR") }
            receivePresence(updates, from: id)
        case .hello, .auth, .close:
            throw .unexpectedMessage(type: message.type.rawValue, phase: "established")
        }
    }

    /// Merges a change set unless already seen, then relays it to the other live peers; an ACK is owed
    /// only when it merged or was a duplicate (a rejected one closes the connection unacknowledged).
    private func merge(_ bytes: [UInt8], from session: SyncSession, id: ConnectionID) throws(SyncError) {
        statistics.changeSetsReceived += 1
        let changes: ChangeSet
        do {
            changes = try ChangeSet(decoding: bytes)
        } catch {
            throw .invalidChanges(reason: "\(error)")
        }
        guard !replica.hasSeen(changes) else {
            statistics.duplicateChangeSets += 1
            session.ackPending = true
            return
        }
        let change: ListChange
        do {
            change = try replica.merge(received: changes)
        } catch let error as MergeError {
            throw .invalidChanges(reason: "\(error)")
        } catch {
            throw .storageFailed(reason: "\(error)")
        }
        post(change, origin: .remote(peers: session.peer.map { [$0] } ?? []))
        session.ackPending = true
        statistics.changeSetsApplied += 1
        // Counts from a peer may be as large as 2^64 - 1: saturate rather than overflow.
        let (total, overflow) = statistics.operationsApplied.addingReportingOverflow(changes.operationCount)
        statistics.operationsApplied = overflow ? .max : total
        broadcast(bytes.count <= frameBudget ? [bytes] : encodedParts(of: changes), except: id)
    }

    /// Queues encoded change sets for every live connection but `excluded`.
    private func broadcast(_ parts: [[UInt8]], except excluded: ConnectionID?) {
        for (id, session) in sessions where id != excluded && session.isLive {
            for bytes in parts { enqueueChanges(bytes, on: session) }
        }
    }

    /// Replaces the catch-up of `session` with everything in `missing`, in parts that fit a frame.
    private func startCatchUp(_ missing: ChangeSet, on session: SyncSession) {
        session.catchUp = encodedParts(of: missing)
        statistics.changeSetsSent += session.catchUp.count
    }

    /// Queues a change set, or, when the queue would exceed its limit, drops the queued ones for a resync.
    private func enqueueChanges(_ bytes: [UInt8], on session: SyncSession) {
        guard !session.needsResync else { return }
        if session.outboxBytes > 0 && session.outboxBytes + bytes.count > settings.outboxByteLimit {
            session.dropQueuedChanges()
            session.needsResync = true
            statistics.resyncs += 1
            return
        }
        session.enqueue(.changes(bytes))
        statistics.changeSetsSent += 1
    }

    /// The next message for a session: pending presence once VECTOR went (unless a change set is going
    /// in pieces), queued messages and the catch-up, then a due resync, then a due ACK.
    private func nextMessage(for session: SyncSession) -> SyncMessage? {
        if session.hasSentVector && !session.isSendingPieces, let message = nextPresenceMessage(for: session) {
            return message
        }
        if let message = session.nextMessage(budget: frameBudget) {
            if case .vector = message { session.hasSentVector = true }
            return message
        }
        if session.isLive && session.needsResync {
            session.needsResync = false
            let missing = replica.changes(since: session.peerVector)
            if !missing.isEmpty {
                startCatchUp(missing, on: session)
                return session.nextMessage(budget: frameBudget)
            }
        }
        if session.ackPending {
            session.ackPending = false
            return .ack(replica.versionVector)
        }
        return nil
    }
}
