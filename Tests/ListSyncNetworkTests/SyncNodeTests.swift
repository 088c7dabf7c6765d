import ListSync
import TestSupport
import Testing

@testable import ListSyncNetwork

/// The transport-free sync core, run in memory: convergence, relay, anti-entropy, backpressure.
struct SyncNodeTests {
    @Test func twoNodesExchangeWhatTheyLack() {
        let network = MemoryNetwork(count: 2, seed: 1)
        network.nodes[0].edit { $0.append(contentsOf: ["milk", "eggs", "bread"]) }
        network.nodes[1].edit { $0.append("tea") }
        network.link(0, 1)
        network.runUntilQuiet()
        #expect(network.errors.isEmpty)
        #expect(network.rows[0] == network.rows[1])
        #expect(Set(network.rows[0]) == ["milk", "eggs", "bread", "tea"])
        #expect(network.nodes.allSatisfy { $0.liveConnectionCount == 1 })
    }

    @Test func liveChangesIncludingDeletesMovesAndEditsFlow() {
        let network = MemoryNetwork(count: 2, seed: 2)
        network.link(0, 1)
        network.runUntilQuiet()
        network.nodes[0].edit { $0.append(contentsOf: ["a", "b", "c"]) }
        network.runUntilQuiet()
        network.nodes[1].edit { list in
            list.move(fromOffsets: [2], toOffset: 0)
            list.remove(at: 1)
            list.updateValue("C", at: 0)
        }
        network.runUntilQuiet()
        #expect(network.rows == [["C", "b"], ["C", "b"]])
    }

    /// A line relays: a change made at one end is applied once by every node.
    @Test func lineRelaysEachChangeOnce() {
        let network = MemoryNetwork(count: 5, seed: 3)
        for index in 0..<4 { network.link(index, index + 1) }
        network.runUntilQuiet()
        for round in 0..<10 {
            network.nodes[round % 5].edit { $0.append("row \(round)") }
            network.runUntilQuiet()
        }
        #expect(Set(network.rows).count == 1)
        for node in network.nodes {
            #expect(node.statistics.changeSetsApplied == 8)
            #expect(node.statistics.duplicateChangeSets == 0)
        }
    }

    /// Random topologies (a spanning tree plus extra links), random edits between random deliveries: 8
    /// seeds in `swift test`, 1,200 in the long run (``RunSize``); `LISTSYNC_TOPOLOGY_SEEDS=N` runs N.
    @Test(arguments: RunSize.seeds("LISTSYNC_TOPOLOGY_SEEDS", quick: 8, long: 1_200))
    func randomTopologiesConverge(seed: UInt64) {
        var generator = SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ 17)
        let count = Int.random(in: 2...7, using: &generator)
        let network = MemoryNetwork(count: count, seed: seed)
        var linked: Set<[Int]> = []
        for node in 1..<count {
            let other = Int.random(in: 0..<node, using: &generator)
            network.link(other, node)
            linked.insert([other, node])
        }
        for _ in 0..<Int.random(in: 0...count, using: &generator) {
            let a = Int.random(in: 0..<count, using: &generator)
            let b = Int.random(in: 0..<count, using: &generator)
            guard a != b, !linked.contains([min(a, b), max(a, b)]) else { continue }
            network.link(a, b)
            linked.insert([min(a, b), max(a, b)])
        }
        for step in 0..<300 {
            let node = Int.random(in: 0..<count, using: &generator)
            network.nodes[node].edit { RandomEdits.apply(to: $0, label: "\(node).\(step)", using: &generator) }
            for _ in 0..<Int.random(in: 0...20, using: &generator) { network.step() }
        }
        network.runUntilQuiet()
        #expect(network.errors.isEmpty, "seed \(seed)")
        #expect(Set(network.rows).count == 1, "seed \(seed): \(count) nodes did not converge")
        for node in network.nodes {
            node.replica._checkInvariants()
            #expect(node.replica.versionVector == network.nodes[0].replica.versionVector, "seed \(seed)")
        }
    }

    /// Edits between two outputs travel as one change set.
    @Test func burstOfEditsTravelsAsOneChangeSet() {
        let network = MemoryNetwork(count: 2, seed: 6)
        network.link(0, 1)
        network.runUntilQuiet()
        for index in 0..<50 { network.nodes[0].edit { $0.append("row \(index)") } }
        network.runUntilQuiet()
        #expect(network.nodes[1].statistics.changeSetsApplied == 1)
        #expect(network.nodes[1].statistics.operationsApplied == 50)
        #expect(network.rows[1].count == 50)
    }

    @Test func aTransactionIsOneChangeSetAndOneEventOnEachSide() {
        let network = MemoryNetwork(count: 2, seed: 8)
        network.link(0, 1)
        network.nodes[0].edit { $0.append(contentsOf: ["a", "b", "c"]) }
        network.runUntilQuiet()
        let local = network.nodes[0].changeFeed.subscribe(from: network.nodes[0].replica)
        let remote = network.nodes[1].changeFeed.subscribe(from: network.nodes[1].replica)
        network.nodes[0].edit { list in
            list.append("d")
            list.move(from: 3, to: 0)
            list.remove(at: 1)
            list.updateValue("B", at: 1)
        }
        network.runUntilQuiet()
        #expect(network.nodes[1].statistics.changeSetsApplied == 2, "the first three rows, then the transaction")
        let (localEvents, remoteEvents) = (local.takeAvailable(), remote.takeAvailable())
        #expect(localEvents.map(\.origin) == [.local])
        #expect(remoteEvents.map(\.origin) == [.remote(peers: [network.nodes[0].replicaID])])
        #expect(localEvents.first?.change == ListChange(removed: [0], inserted: [0], updated: [1]))
        var localRows = local.initialRows
        for event in localEvents { event.apply(to: &localRows) }
        var remoteRows = remote.initialRows
        for event in remoteEvents { event.apply(to: &remoteRows) }
        #expect(localRows == Array(network.nodes[0].replica) && remoteRows == Array(network.nodes[1].replica))
        #expect(remoteRows.map(\.value) == ["d", "B", "c"])
    }

    /// A peer that pulls nothing: its queue stays bounded, then one resync brings it up to date.
    @Test func fullOutboxFallsBackToResync() {
        var settings = SyncSettings.test
        settings.outboxByteLimit = 2048
        let network = MemoryNetwork(count: 2, settings: settings, seed: 4)
        let pipe = network.link(0, 1)
        network.runUntilQuiet()
        for index in 0..<500 {
            network.nodes[0].edit { $0.append("row \(index) with some padding") }
            network.nodes[0].publishLocalChanges()
        }
        #expect(network.nodes[0].statistics.resyncs >= 1)
        let queued = network.nodes[0].output(for: network.pipes[pipe].fromConnection, limit: .max)
        #expect(queued.count < 4 * 2048 + 40_000, "the resync message is one change set of the 500 rows")
        network.deliverAll(queued, on: pipe)
        network.runUntilQuiet()
        #expect(network.rows[0] == network.rows[1])
        #expect(network.rows[1].count == 500)
    }

    /// Runs the handshake and first exchange between `intruder` and node 1 of `network` over a new
    /// connection; returns the error that ended it, if any.
    static func connect<Replica: SyncReplica>(
        _ intruder: SyncNode<Replica>, to network: MemoryNetwork
    ) -> SyncError? {
        let victim = network.nodes[1]
        intruder.open(ConnectionID(1), role: .initiator, nonce: Array(repeating: 1, count: 32))
        victim.open(ConnectionID(1000), role: .responder, nonce: Array(repeating: 2, count: 32))
        for _ in 0..<10 {
            do {
                try victim.receive(intruder.output(for: ConnectionID(1), limit: .max), on: ConnectionID(1000))
                try intruder.receive(victim.output(for: ConnectionID(1000), limit: .max), on: ConnectionID(1))
            } catch {
                return error
            }
        }
        return nil
    }

    /// An authenticated peer whose change set does not merge (an operation it does not account for) is
    /// cut off alone.
    @Test func invalidChangeSetClosesOnlyThatConnectionAndLeavesTheReplicaAlone() throws {
        let network = MemoryNetwork(count: 2, seed: 5)
        network.link(0, 1)
        network.nodes[0].edit { $0.append("kept") }
        network.runUntilQuiet()
        let victim = network.nodes[1]
        let failure = Self.connect(SyncNode(replica: TamperedReplica(ReplicaID(99)), settings: .test), to: network)
        guard case .invalidChanges = failure else {
            Issue.record("expected invalidChanges, got \(String(describing: failure))")
            return
        }
        victim.close(ConnectionID(1000), because: try #require(failure))
        #expect(victim.connections == [ConnectionID(2)])
        #expect(network.rows[1] == ["kept"])
        network.nodes[1].edit { $0.append("still syncing") }
        network.runUntilQuiet()
        #expect(network.rows[0] == ["kept", "still syncing"])
        #expect(victim.statistics.closedByCode[10] == 1)
    }

    /// A peer whose values are of another element type is not cut off: its rows are kept, hidden, and
    /// relayed to the other peers as they are.
    @Test func valuesOfAnotherTypeKeepTheConnectionAndAreRelayed() throws {
        let network = MemoryNetwork(count: 2, seed: 5)
        network.link(0, 1)
        network.nodes[0].edit { $0.append("kept") }
        network.runUntilQuiet()
        let other = SyncNode(replica: ReplicatedList<Int>(replicaID: ReplicaID(99)), settings: .test)
        other.edit { $0.append(7) }
        #expect(Self.connect(other, to: network) == nil)
        let victim = network.nodes[1]
        #expect(victim.connections.count == 2 && victim.isLive(ConnectionID(1000)))
        #expect(network.rows[1] == ["kept"] && victim.replica.undecodableRows.count == 1)
        network.runUntilQuiet()
        #expect(network.nodes[0].replica.undecodableRows.map(\.bytes) == victim.replica.undecodableRows.map(\.bytes))
        #expect(other.replica.map(\.value) == [7] && other.replica.undecodableRows.count == 1)
    }
}

extension MemoryNetwork {
    /// Puts `bytes` on pipe `index` and delivers them.
    func deliverAll(_ bytes: [UInt8], on index: Int) {
        inject(bytes, on: index)
        deliver(pipes[index].inFlight.count, on: index)
    }
}
