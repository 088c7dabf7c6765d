import ListSync

/// The sync state of one connection: its channel, what the peer has, and the bounded queue of messages to it.
final class SyncSession {
    /// Handshake, framing and encryption.
    var channel: SecureChannel
    /// Whether the peer's VECTOR arrived: from then on, changes stream live.
    var isLive = false
    /// The peer's replica, once the handshake succeeded.
    var peer: ReplicaID?
    /// The latest version vector the peer reported (VECTOR, then ACKs).
    var peerVector = VersionVector()
    /// The peers whose latest presence update is still to be sent (the update itself is looked up when
    /// sent, so each peer's latest goes once however often it changed meanwhile).
    var pendingPresence: Set<ReplicaID> = []
    /// Whether this side's VECTOR was sent: PRESENCE goes only after it (VECTOR is the first sealed frame).
    var hasSentVector = false
    /// Messages waiting to be sealed, oldest first, from `head` on.
    private var outbox: [SyncMessage] = []
    /// Index of the oldest message of `outbox` not sent yet.
    private var head = 0
    /// Bytes of change sets in the outbox.
    private(set) var outboxBytes = 0
    /// Whether queued change sets were dropped and a resync from `peerVector` is due.
    var needsResync = false
    /// Whether an ACK is due (a change set arrived since the last one).
    var ackPending = false
    /// Encoded parts of a catch-up or resync (everything the peer lacks), sent after the outbox; not
    /// bounded by the outbox limit, since they are one copy of the replica's state.
    var catchUp: [[UInt8]] = [] {
        didSet { catchUpHead = 0 }
    }
    /// Index of the first part of `catchUp` not sent yet.
    private var catchUpHead = 0
    /// A change set too big for one frame being sent in pieces, and how many of its bytes were sent.
    private var outgoingPieces: (bytes: [UInt8], sent: Int)?
    /// The pieces of a change set received so far (empty between change sets).
    private var incomingPieces: [UInt8] = []

    /// A session over `channel`.
    init(channel: SecureChannel) { self.channel = channel }

    /// Whether messages are queued: in the outbox, in the catch-up, or the rest of a change set in pieces.
    var hasQueuedMessages: Bool { head < outbox.count || catchUpHead < catchUp.count || outgoingPieces != nil }

    /// The next message to send, each within `budget` bytes of payload: the rest of a change set in
    /// pieces, else the oldest queued message, else the next catch-up part (a change set larger than
    /// `budget` is sent as PIECEs and a final CHANGES).
    func nextMessage(budget: Int) -> SyncMessage? {
        if let (bytes, sent) = outgoingPieces {
            let end = min(bytes.count, sent + budget)
            outgoingPieces = end < bytes.count ? (bytes, end) : nil
            return end < bytes.count ? .piece(Array(bytes[sent..<end])) : .changes(Array(bytes[sent..<end]))
        }
        let message: SyncMessage
        if let queued = dequeue() {
            message = queued
        } else if catchUpHead < catchUp.count {
            message = .changes(catchUp[catchUpHead])
            catchUpHead += 1
            if catchUpHead == catchUp.count { catchUp = [] }
        } else {
            return nil
        }
        guard case .changes(let bytes) = message, bytes.count > budget else { return message }
        outgoingPieces = (bytes, 0)
        return nextMessage(budget: budget)
    }

    /// Whether the peer speaks PRESENCE: the handshake agreed on version 6 or later.
    var speaksPresence: Bool { (channel.version ?? 0) >= SyncProtocol.firstVersionWithPresence }

    /// Whether a change set is being sent in pieces (nothing else may be sent until it ends).
    var isSendingPieces: Bool { outgoingPieces != nil }

    /// Whether a change set is being received in pieces (only PIECE or CHANGES may come next).
    var isReceivingPieces: Bool { !incomingPieces.isEmpty }

    /// Appends a received PIECE.
    /// - Throws: ``SyncError/changeSetTooLarge(length:limit:)`` when the change set grows past `limit`.
    func receivePiece(_ bytes: [UInt8], limit: Int) throws(SyncError) {
        guard bytes.count <= limit - incomingPieces.count else {
            throw .changeSetTooLarge(length: incomingPieces.count + bytes.count, limit: limit)
        }
        incomingPieces += bytes
    }

    /// The change set that a received CHANGES completes: its bytes after the pieces received before it.
    /// - Throws: ``SyncError/changeSetTooLarge(length:limit:)`` when it is longer than `limit`.
    func completeChangeSet(_ bytes: [UInt8], limit: Int) throws(SyncError) -> [UInt8] {
        try receivePiece(bytes, limit: limit)
        defer { incomingPieces = [] }
        return incomingPieces
    }

    /// Queues a message.
    func enqueue(_ message: SyncMessage) {
        if case .changes(let bytes) = message { outboxBytes += bytes.count }
        outbox.append(message)
    }

    /// Takes the oldest queued message.
    private func dequeue() -> SyncMessage? {
        guard head < outbox.count else { return nil }
        let message = outbox[head]
        head += 1
        if head == outbox.count {
            outbox.removeAll(keepingCapacity: true)
            head = 0
        }
        if case .changes(let bytes) = message { outboxBytes -= bytes.count }
        return message
    }

    /// Drops every queued change set (a resync will replace them); other messages stay.
    func dropQueuedChanges() {
        outbox = outbox[head...].filter {
            if case .changes = $0 { return false }
            return true
        }
        head = 0
        outboxBytes = 0
    }
}
