import ListSync
import TestSupport
import Testing

/// A feed combines the events a subscriber has not taken yet, local with local and remote with remote,
/// into exact events, and ends its subscriptions when it finishes.
struct ChangeFeedTests {
    /// Every event of `events` until its feed finishes.
    static func drain(_ events: ChangeEvents<String>) async -> [ChangeEvent<String>] {
        var taken: [ChangeEvent<String>] = []
        for await event in events { taken.append(event) }
        return taken
    }

    /// One random edit of `list`, and its batch.
    static func randomEdit(of list: ReplicatedList<String>, label: String, using generator: inout SplitMix64)
        -> ListChange
    {
        let count = list.count
        switch count < 2 ? 0 : Int.random(in: 0..<4, using: &generator) {
        case 0: return list.insert(label, at: Int.random(in: 0...count, using: &generator))
        case 1:
            return list.move(
                from: Int.random(in: 0..<count, using: &generator), to: Int.random(in: 0..<count, using: &generator))
        case 2: return list.remove(at: Int.random(in: 0..<count, using: &generator))
        default: return list.updateValue(label, at: Int.random(in: 0..<count, using: &generator))
        }
    }

    @Test(arguments: 0..<10 as Range<UInt64>)
    func eventsNotTakenYetAreCombinedByOrigin(seed: UInt64) async throws {
        var generator = SplitMix64(seed: seed)
        let list = ReplicatedList<String>(replicaID: ReplicaID(1))
        let peer = ReplicatedList<String>(replicaID: ReplicaID(2))
        let feed = ChangeFeed<String>()
        list.append(contentsOf: ["a", "b", "c"])
        try peer.merge(list.changes(since: peer.versionVector))
        let events = feed.subscribe(from: list)
        let remote = ChangeOrigin.remote(peers: [peer.replicaID])
        for step in 0..<200 {
            // Ten merges from the peer, then ten local edits, and so on: twenty runs of one origin.
            if step / 10 % 2 == 0 {
                _ = Self.randomEdit(of: peer, label: "p\(step)", using: &generator)
                feed.post(try list.merge(peer.changes(since: list.versionVector)), origin: remote, in: list)
            } else {
                feed.post(Self.randomEdit(of: list, label: "l\(step)", using: &generator), origin: .local, in: list)
                try peer.merge(list.changes(since: peer.versionVector))
            }
        }
        feed.finish()
        let taken = await Self.drain(events)
        #expect(taken.map(\.origin) == (0..<20).map { $0 % 2 == 0 ? remote : .local }, "one event per run")
        var mirror = BatchMirror(events.initialRows)
        var rows = events.initialRows
        for event in taken {
            var inserted = event.insertedRows.makeIterator()
            var expected = try BatchMirror<String>.applying(event.change, to: mirror.rows) { _ in inserted.next()! }
            for (index, row) in zip(event.change.updated, event.updatedRows) { expected[index] = row }
            mirror = BatchMirror(expected)
            event.apply(to: &rows)
            #expect(rows == expected && rows.count == event.count)
        }
        #expect(rows == Array(list))
    }

    @Test func aSubscriptionAfterFinishEndsAtOnce() async {
        let list = ReplicatedList<String>()
        let feed = ChangeFeed<String>()
        feed.finish()
        let events = feed.subscribe(from: list)
        #expect(await Self.drain(events).isEmpty)
        #expect(!feed.hasSubscribers)
    }

    @Test func droppingTheSequenceEndsTheSubscription() {
        let list = ReplicatedList<String>()
        let feed = ChangeFeed<String>()
        var events: ChangeEvents<String>? = feed.subscribe(from: list)
        #expect(feed.hasSubscribers && events != nil)
        events = nil
        #expect(!feed.hasSubscribers)
    }

    @Test func cancellingTheConsumerEndsItsWait() async {
        let list = ReplicatedList<String>()
        let feed = ChangeFeed<String>()
        let events = feed.subscribe(from: list)
        let consumer = Task { await Self.drain(events).count }
        try? await Task.sleep(for: .milliseconds(50))
        consumer.cancel()
        #expect(await consumer.value == 0)
    }
}
