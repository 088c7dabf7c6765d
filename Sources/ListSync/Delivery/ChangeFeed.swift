import Synchronization

/// Delivers every change of one list, in order, to any number of subscribers, each at its own pace.
///
/// The owner of the list (a sync peer, a store) posts each change as it happens, under the lock that
/// guards the list, and hands out subscriptions (``subscribe(from:)``) under the same lock, so a
/// subscription's ``ChangeEvents/initialRows`` and its first event fit together. Events a subscriber has
/// not taken yet are combined when they have compatible origins (``ChangeOrigin``): a slow consumer gets
/// fewer, larger events, never a skipped or repeated one, and its queue stays short however many merges
/// arrive meanwhile.
public final class ChangeFeed<Element: Codable & Sendable>: Sendable {
    /// The subscribers' queues, by subscription number.
    private let queues = Mutex<(next: Int, open: [Int: EventQueue<Element>], finished: Bool)>((0, [:], false))

    /// A feed with no subscribers.
    public init() {}

    /// Whether anyone listens (so that an owner can skip building events nobody takes).
    public var hasSubscribers: Bool { queues.withLock { !$0.open.isEmpty } }

    /// A new subscription whose events start after `list`'s current rows.
    ///
    /// Call it where changes are posted from (under the list's lock), so no change falls between.
    /// - Complexity: O(n) for n rows, to copy them.
    public func subscribe(from list: ReplicatedList<Element>) -> ChangeEvents<Element> {
        let queue = EventQueue<Element>()
        let (number, finished) = queues.withLock { queues in
            defer { queues.next += 1 }
            if !queues.finished { queues.open[queues.next] = queue }
            return (queues.next, queues.finished)
        }
        if finished { queue.finish() }
        return ChangeEvents(initialRows: Array(list), queue: queue) { [weak self] in self?.unsubscribe(number) }
    }

    /// Delivers `change`, which `list` has just made, to every subscriber.
    /// - Complexity: O(k log n) for k inserted and updated rows when anyone listens; O(1) otherwise.
    public func post(_ change: ListChange, origin: ChangeOrigin, in list: ReplicatedList<Element>) {
        guard !change.isEmpty else { return }
        let queues = self.queues.withLock { Array($0.open.values) }
        guard !queues.isEmpty else { return }
        let event = ChangeEvent(change, origin: origin, in: list)
        for queue in queues { queue.append(event) }
    }

    /// Ends every subscription once its consumer has taken the events already posted; later
    /// subscriptions end at once.
    public func finish() {
        let queues = self.queues.withLock { queues in
            queues.finished = true
            defer { queues.open.removeAll() }
            return Array(queues.open.values)
        }
        for queue in queues { queue.finish() }
    }

    private func unsubscribe(_ number: Int) {
        queues.withLock { _ = $0.open.removeValue(forKey: number) }
    }
}

/// One subscriber's events not taken yet, and the consumer waiting for one.
///
/// Events leave the queue only through ``takeAll()`` or ``take()``, under its lock; a waiting consumer is
/// only told that there are events (``waitForEvents()``), so a consumer that takes events both after
/// waiting and right after its own edits, always on its own actor, sees them in order.
final class EventQueue<Element: Sendable>: Sendable {
    private struct State {
        var events: [ChangeEvent<Element>] = []
        var head = 0
        var waiter: CheckedContinuation<Void, Never>?
        var finished = false

        /// Wakes the waiting consumer, if any.
        mutating func wake() {
            waiter?.resume()
            waiter = nil
        }
    }

    private let state = Mutex(State())

    /// Adds `event`, combined with the last one not taken when their origins allow, and wakes the consumer.
    func append(_ event: ChangeEvent<Element>) {
        state.withLock { state in
            if state.finished { return }
            if state.events.count > state.head, let last = state.events.last, last.origin.combines(with: event.origin) {
                state.events[state.events.count - 1] = last.followed(by: event)
            } else {
                state.events.append(event)
            }
            state.wake()
        }
    }

    /// Ends the queue once the events in it are taken; wakes a waiting consumer.
    func finish() {
        state.withLock { state in
            state.finished = true
            state.wake()
        }
    }

    /// The oldest event not taken yet, or nil.
    func take() -> ChangeEvent<Element>? {
        state.withLock { state in
            guard state.head < state.events.count else { return nil }
            let event = state.events[state.head]
            state.head += 1
            if state.head == state.events.count {
                state.events.removeAll(keepingCapacity: true)
                state.head = 0
            }
            return event
        }
    }

    /// Every event not taken yet, oldest first.
    func takeAll() -> [ChangeEvent<Element>] {
        state.withLock { state in
            defer {
                state.events.removeAll(keepingCapacity: true)
                state.head = 0
            }
            return Array(state.events[state.head...])
        }
    }

    /// Returns once there are events to take (true), or once the queue is finished and empty or the
    /// calling task is cancelled (false). Events another caller took meanwhile do not count: it waits on.
    func waitForEvents() async -> Bool {
        while true {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    state.withLock { state in
                        if state.head < state.events.count || state.finished || Task.isCancelled {
                            continuation.resume()
                        } else {
                            state.waiter = continuation
                        }
                    }
                }
            } onCancel: {
                state.withLock { $0.wake() }
            }
            let (available, finished) = state.withLock { ($0.head < $0.events.count, $0.finished) }
            if available { return true }
            if finished || Task.isCancelled { return false }
        }
    }

    /// The next event, waiting for one; nil once finished and empty, or when the calling task is cancelled.
    func next() async -> ChangeEvent<Element>? {
        while true {
            if let event = take() { return event }
            guard await waitForEvents() else { return nil }
        }
    }
}
