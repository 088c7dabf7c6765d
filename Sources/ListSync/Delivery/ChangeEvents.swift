/// The changes of one list as an asynchronous sequence, from a subscription's starting rows on.
///
/// Consume it on the actor that shows the rows (the main actor for UI code): start from
/// ``initialRows`` and apply each event in turn, and the copy stays equal to the list. Each event is
/// delivered exactly once, in order; events the consumer has not taken yet are combined into exact
/// larger ones (``ChangeFeed``). The sequence ends when its feed finishes (its peer stopped); iterate
/// it once. Dropping it (and its iterator) ends the subscription.
///
/// ```swift
/// let events = peer.changeEvents()
/// var rows = events.initialRows
/// for await event in events { event.apply(to: &rows) }
/// ```
public final class ChangeEvents<Element: Sendable>: AsyncSequence, Sendable {
    /// The rows when the subscription started: the rows the first event applies to.
    public let initialRows: [Row<Element>]
    private let queue: EventQueue<Element>
    private let unsubscribe: @Sendable () -> Void

    init(initialRows: [Row<Element>], queue: EventQueue<Element>, unsubscribe: @escaping @Sendable () -> Void) {
        self.initialRows = initialRows
        self.queue = queue
        self.unsubscribe = unsubscribe
    }

    deinit { unsubscribe() }

    /// Takes the events in order.
    public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
        /// Keeps the subscription open while iterating.
        let events: ChangeEvents

        /// The next event; nil when the feed finished or the task was cancelled.
        public mutating func next() async -> ChangeEvent<Element>? { await events.queue.next() }
    }

    /// An iterator over the events.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(events: self) }

    /// Takes every event delivered so far without waiting, oldest first.
    ///
    /// For a consumer that must see its own edit at once (a table view that already shows a reorder,
    /// a SwiftUI `onMove`): edit, then take what is available, which includes that edit. Take events
    /// only on one actor, and there with this method after ``waitForEvents()`` rather than with the
    /// iterator, whose `next()` runs elsewhere: events are then applied in order.
    public func takeAvailable() -> [ChangeEvent<Element>] { queue.takeAll() }

    /// Returns true once there are events to take with ``takeAvailable()``; false once the sequence has
    /// ended or the calling task is cancelled.
    public func waitForEvents() async -> Bool { await queue.waitForEvents() }
}

extension ChangeEvents {
    /// Calls `handler` on the main actor with each event, in order, until the sequence ends or the
    /// returned observation is cancelled (or released): the closure form for UIKit code. Main-actor
    /// code may also call ``takeAvailable()`` (right after its own edit): events go to one or the other,
    /// each once, in order.
    ///
    /// ```swift
    /// let events = peer.changeEvents()
    /// rows = events.initialRows
    /// observation = events.observe { [weak self] event in self?.apply(event) }
    /// ```
    /// The handler may read and edit the list (through its peer or store): it runs after the change,
    /// outside their locks.
    public func observe(_ handler: @escaping @MainActor (ChangeEvent<Element>) -> Void) -> ChangeObservation {
        ChangeObservation(
            Task { @MainActor in
                while await waitForEvents() {
                    for event in takeAvailable() { handler(event) }
                }
            })
    }
}

/// A running ``ChangeEvents/observe(_:)``: cancel it, or release it, to stop the calls.
public final class ChangeObservation: Sendable {
    private let task: Task<Void, Never>

    /// Owns `task`, which is cancelled when this is released (a model's own loop over the events).
    package init(_ task: Task<Void, Never>) { self.task = task }

    deinit { task.cancel() }

    /// Stops the calls; an event being handled finishes first.
    public func cancel() { task.cancel() }
}
