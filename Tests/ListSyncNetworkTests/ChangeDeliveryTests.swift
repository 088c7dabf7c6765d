import Foundation
import ListSync
import Synchronization
import TestSupport
import Testing

@testable import ListSyncNetwork

/// Every change of a peer's rows, local or remote, reaches a subscriber exactly once and in order: a
/// consumer that applies each event to a plain array (checked as a table view would) ends equal to
/// the list, also when it is slow and events are combined. 2 seeds in `swift test`, 48 in the long run
/// (``RunSize``); `LISTSYNC_DELIVERY_SEEDS=N` runs N seeds; `LISTSYNC_DELIVERY_SEED=S` replays one.
@Suite(.timeLimit(.minutes(5)))
struct ChangeDeliveryTests {
    static let environment = ProcessInfo.processInfo.environment
    static let seeds = RunSize.seeds("LISTSYNC_DELIVERY_SEEDS", quick: 2, long: 48, from: 1)

    /// A consumer's rows, the events it took, and the first batch that did not fit them.
    final class Consumer: Sendable {
        private let state: Mutex<(rows: [Row<String>], events: Int, remote: Int, failure: String?)>

        init(_ events: ChangeEvents<String>, pause: Duration?) {
            state = Mutex((events.initialRows, 0, 0, nil))
            Task.detached { [self] in
                for await event in events {
                    take(event)
                    if let pause { try? await Task.sleep(for: pause) }
                }
            }
        }

        var rows: [Row<String>] { state.withLock { $0.rows } }
        var events: Int { state.withLock { $0.events } }
        var remoteEvents: Int { state.withLock { $0.remote } }
        var failure: String? { state.withLock { $0.failure } }

        /// Applies `event` as a table view would (the oracle throws on a batch UIKit rejects), then
        /// checks the library's own `apply(to:)` gives the same rows.
        private func take(_ event: ChangeEvent<String>) {
            state.withLock { state in
                guard state.failure == nil else { return }
                state.events += 1
                if case .remote = event.origin { state.remote += 1 }
                do {
                    var inserted = event.insertedRows.makeIterator()
                    var expected = try BatchMirror<String>.applying(event.change, to: state.rows) { _ in
                        inserted.next()!
                    }
                    for (index, row) in zip(event.change.updated, event.updatedRows) {
                        guard expected[index].id == row.id else {
                            state.failure = "update of \(row.id) at \(index) holds \(expected[index].id)"
                            return
                        }
                        expected[index] = row
                    }
                    guard expected.count == event.count else {
                        state.failure = "event says \(event.count) rows, batch leaves \(expected.count)"
                        return
                    }
                    event.apply(to: &state.rows)
                    if state.rows != expected {
                        state.failure = "apply(to:) differs from the oracle for \(event.change)"
                    }
                } catch {
                    state.failure = "event \(state.events) (\(event.change)): \(error)"
                }
            }
        }
    }

    /// One random step on peer `index`: a transaction of a few edits, or a single edit.
    static func randomStep(on peer: ListPeer, label: String, using generator: inout SplitMix64) {
        let edits = Int.random(in: 1...3, using: &generator)
        peer.edit { list in
            for edit in 0..<edits { RandomEdits.apply(to: list, label: "\(label).\(edit)", using: &generator) }
        }
    }

    @Test(arguments: seeds)
    func everyChangeReachesTheConsumerOnce(seed: UInt64) async throws {
        try await Self.run(seed: seed)
    }

    @Test func replayDeliverySeed() async throws {
        try await Self.run(seed: Self.environment["LISTSYNC_DELIVERY_SEED"].flatMap { UInt64($0) } ?? 4)
    }

    /// Three peers in a ring edit at random, 1,500 steps of one to three edits (some while a consumer
    /// is slow, one consumer starting late); every consumer ends equal to its list.
    static func run(seed: UInt64) async throws {
        announceSeed(
            seed, of: "change delivery",
            replay: "LISTSYNC_DELIVERY_SEED=\(seed) swift test --filter replayDeliverySeed")
        var generator = SplitMix64(seed: seed)
        let peers = try (1...3).map { try makePeer(UInt64($0)) }
        defer { for peer in peers { peer.stop() } }
        // One consumer keeps up, one is slow (its events are combined), and one starts late.
        var consumers = [
            Consumer(peers[0].changeEvents(), pause: nil),
            Consumer(peers[1].changeEvents(), pause: .milliseconds(3)),
        ]
        let endpoints = try peers.map { try $0.listen(on: .loopbackIPv4()) }
        peers[1].connect(to: endpoints[0])
        peers[2].connect(to: endpoints[1])
        peers[0].connect(to: endpoints[2])
        for step in 0..<1_500 {
            let index = Int.random(in: 0..<3, using: &generator)
            Self.randomStep(on: peers[index], label: "\(index).\(step)", using: &generator)
            if step == 500 { consumers.append(Consumer(peers[2].changeEvents(), pause: nil)) }
            if step % 100 == 0 { try await Task.sleep(for: .milliseconds(5)) }  // let merges interleave
        }
        let settled = await eventually(.seconds(60)) {
            let lists = peers.map { peer in peer.read { Array($0) } }
            return lists.allSatisfy { $0 == lists[0] }
                && zip(consumers, [0, 1, 2]).allSatisfy { consumer, index in consumer.rows == lists[index] }
        }
        for (index, consumer) in consumers.enumerated() {
            #expect(consumer.failure == nil, "consumer \(index): \(consumer.failure ?? "")")
            #expect(consumer.remoteEvents > 0, "consumer \(index) saw remote changes")
        }
        #expect(settled, "the consumers' rows equal their lists once the peers converged")
    }

    @Test func theFeedEndsWhenThePeerStops() async throws {
        let peer = try makePeer(1)
        peer.edit { $0.append("a") }
        let events = peer.changeEvents()
        #expect(events.initialRows.map(\.value) == ["a"])
        peer.edit { list in
            list.append("b")
            list.move(from: 1, to: 0)
        }
        peer.stop()
        var received: [ChangeEvent<String>] = []
        for await event in events { received.append(event) }
        #expect(received.count == 1)
        #expect(received.first?.change == ListChange(inserted: [0]))
        #expect(received.first?.origin == .local)
        #expect(received.first?.insertedRows.map(\.value) == ["b"])
        var rows = events.initialRows
        received.first?.apply(to: &rows)
        #expect(rows.map(\.value) == ["b", "a"])
    }

    @Test func aHandlerMayEditThePeer() async throws {
        let peer = try makePeer(1)
        defer { peer.stop() }
        let seen = Mutex<[String]>([])
        let events = peer.changeEvents()
        let task = Task.detached {
            for await event in events {
                seen.withLock { $0 += event.insertedRows.map(\.value) }
                // Reading and editing the peer from the handler neither deadlocks nor traps.
                if peer.read({ $0.count }) < 3 { peer.edit { $0.append("echo") } }
            }
        }
        peer.edit { $0.append("first") }
        #expect(await eventually { peer.read { $0.count } == 3 })
        #expect(await eventually { seen.withLock { $0 } == ["first", "echo", "echo"] })
        task.cancel()
    }
}
