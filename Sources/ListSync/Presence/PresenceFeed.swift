import Synchronization

/// Delivers the presences of the other peers, whole, to any number of subscribers each time they
/// change.
///
/// A subscriber that falls behind gets only the latest presences (each stream buffers one), which is
/// all a view needs to redraw: presence is a state, not a history.
public final class PresenceFeed: Sendable {
    /// The subscribers' continuations, by subscription number.
    private let subscribers = Mutex<
        (next: Int, open: [Int: AsyncStream<[ReplicaID: Presence]>.Continuation], finished: Bool)
    >((0, [:], false))

    /// A feed with no subscribers.
    public init() {}

    /// Whether anyone listens (so that an owner can skip building presences nobody takes).
    public var hasSubscribers: Bool { subscribers.withLock { !$0.open.isEmpty } }

    /// A stream that starts with `current` and then yields the presences each time they change; it
    /// ends when the feed finishes (at once when it has finished already).
    public func subscribe(current: [ReplicaID: Presence]) -> AsyncStream<[ReplicaID: Presence]> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: [ReplicaID: Presence].self, bufferingPolicy: .bufferingNewest(1))
        continuation.yield(current)
        let number: Int? = subscribers.withLock { subscribers in
            guard !subscribers.finished else { return nil }
            defer { subscribers.next += 1 }
            subscribers.open[subscribers.next] = continuation
            return subscribers.next
        }
        guard let number else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.open.removeValue(forKey: number) }
        }
        return stream
    }

    /// Delivers `presences` to every subscriber.
    public func post(_ presences: [ReplicaID: Presence]) {
        for continuation in subscribers.withLock({ Array($0.open.values) }) { continuation.yield(presences) }
    }

    /// Ends every subscription; later subscriptions end after their first element.
    public func finish() {
        let open = subscribers.withLock { subscribers in
            subscribers.finished = true
            defer { subscribers.open.removeAll() }
            return Array(subscribers.open.values)
        }
        for continuation in open { continuation.finish() }
    }
}
