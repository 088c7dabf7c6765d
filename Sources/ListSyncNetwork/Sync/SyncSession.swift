import ListSync

/// The sync state of one connection: its channel, what the peer has, and the bounded queue of messages to it.
final class SyncSession {
    /// Handshake, framing and encryption.
    var channel: SecureChannel
    /// Whether the peer's VECTOR arrived: from then on, changes stream live.
    var isLive = false
    /// The latest version vector the peer reported (VECTOR, then ACKs).
    var peerVector = VersionVector()
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

    /// A session over `channel`.
    init(channel: SecureChannel) { self.channel = channel }

    /// Whether messages are queued.
    var hasQueuedMessages: Bool { head < outbox.count }

    /// Queues a message.
    func enqueue(_ message: SyncMessage) {
        if case .changes(let bytes) = message { outboxBytes += bytes.count }
        outbox.append(message)
    }

    /// Takes the oldest queued message.
    func dequeue() -> SyncMessage? {
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
