import Foundation
import ListSync
import TestSupport
import Testing

@testable import ListSyncNetwork

/// Presence in the sync core: sent on connections of version 6, relayed once, coalesced, renewed,
/// expired, said goodbye to; never to a version 5 peer, and a malformed one closes the connection.
struct PresenceSyncTests {
    /// The tests' monotonic time origin.
    static let start = ContinuousClock.now

    /// `seconds` after ``start``.
    static func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int(seconds * 1000)) }

    /// A network of `count` nodes, ticked at ``start``, linked in a line.
    static func line(_ count: Int, seed: UInt64) -> MemoryNetwork {
        let network = MemoryNetwork(count: count, seed: seed)
        for node in network.nodes { node.tickPresence(now: at(0)) }
        for index in 1..<count { network.link(index - 1, index) }
        network.runUntilQuiet()
        return network
    }

    /// Sets node `index`'s presence at `seconds`.
    static func set(_ presence: Presence?, on network: MemoryNetwork, _ index: Int, at seconds: Double = 0) throws {
        try network.nodes[index].setPresence(presence, wallClockMilliseconds: 1_000, now: at(seconds))
    }

    @Test func aPresenceReachesThePeerWithItsRowsAndDeletedRowsLeaveIt() throws {
        let network = Self.line(2, seed: 1)
        network.nodes[0].edit { $0.append(contentsOf: ["milk", "eggs", "bread"]) }
        network.runUntilQuiet()
        let rows = network.nodes[0].replica.read { list in list.compactMap(\.id.rowID) }
        let presence = Presence(
            name: "Ana", selection: [rows[0], rows[2]], drag: .init(rows: [rows[1]], hover: .before(rows[0])))
        try Self.set(presence, on: network, 0)
        network.runUntilQuiet()
        #expect(network.nodes[1].presences == [ReplicaID(1): presence])
        #expect(network.nodes[0].presences.isEmpty)
        network.nodes[1].edit { $0.remove(at: 2) }
        network.runUntilQuiet()
        #expect(network.nodes[1].presences[ReplicaID(1)]?.selection == [rows[0]])
        #expect(network.errors.isEmpty)
    }

    /// Along a line of four, a presence is relayed to the far end, each peer applies it once, and no
    /// peer ever holds an update about itself (relayed back to it).
    @Test func presencesAreRelayedAlongALineAndNoPeerHoldsItsOwn() throws {
        let network = Self.line(4, seed: 2)
        for index in 0..<4 { try Self.set(Presence(name: "peer \(index)"), on: network, index) }
        network.runUntilQuiet()
        for (index, node) in network.nodes.enumerated() {
            let expected = Dictionary(
                uniqueKeysWithValues: (0..<4).filter { $0 != index }.map {
                    (ReplicaID(UInt64($0 + 1)), Presence(name: "peer \($0)"))
                })
            #expect(node.presences == expected, "node \(index)")
            #expect(node.presence.table.update(of: node.replicaID) == nil)
        }
        #expect(network.errors.isEmpty)
    }

    /// A thousand changes before the next output travel as the latest one: the queue holds one update
    /// per peer, not one per change.
    @Test func manyChangesBeforeTheNextOutputTravelAsTheLatest() throws {
        let network = Self.line(2, seed: 3)
        try Self.set(Presence(name: "typing 0"), on: network, 0)
        network.runUntilQuiet()
        let before = network.nodes[0].statistics.bytesSent
        for index in 1...1000 { try Self.set(Presence(name: "typing \(index)"), on: network, 0) }
        network.runUntilQuiet()
        let sent = network.nodes[0].statistics.bytesSent - before
        #expect(network.nodes[1].presences[ReplicaID(1)]?.name == "typing 1000")
        // One sealed PRESENCE of one update: frame length, type, tag and about 25 bytes of update.
        #expect(sent < 80, "\(sent) bytes for 1,000 changes")
    }

    /// A peer silent for the timeout is forgotten; one that renews every half timeout is not.
    @Test func aSilentPeerExpiresAndARenewingOneStays() throws {
        let network = Self.line(3, seed: 4)
        try Self.set(Presence(name: "renews"), on: network, 0)
        try Self.set(Presence(name: "falls silent"), on: network, 2)
        network.runUntilQuiet()
        #expect(network.nodes[1].presences.count == 2)
        let first = try #require(network.nodes[1].presence.table.update(of: ReplicaID(1))?.clock)
        for seconds in stride(from: 1.0, through: 40, by: 1) {
            // Node 2 no longer ticks (suspended): it renews nothing.
            for index in 0..<2 { network.nodes[index].tickPresence(now: Self.at(seconds)) }
            network.runUntilQuiet()
        }
        // Renewed at 15 s and 30 s, each time as a newer update (an equal clock would not be applied).
        #expect(network.nodes[1].presence.table.update(of: ReplicaID(1))?.clock == first + 2)
        #expect(network.nodes[1].presences == [ReplicaID(1): Presence(name: "renews")])
        #expect(network.nodes[0].presences.isEmpty)
    }

    /// A cleared presence (as on stop) reaches every peer at once, and the departure is kept until it
    /// expires, so an older copy relayed late cannot bring the peer back.
    @Test func aGoodbyeRemovesThePeerEverywhere() throws {
        let network = Self.line(3, seed: 5)
        try Self.set(Presence(name: "leaving"), on: network, 0)
        network.runUntilQuiet()
        let old = try #require(network.nodes[0].presence.own)
        try Self.set(nil, on: network, 0)
        #expect(network.nodes[0].ownPresence == nil)
        network.runUntilQuiet()
        for node in network.nodes { #expect(node.presences.isEmpty) }
        network.nodes[2].receivePresence([old], from: ConnectionID(99))
        #expect(network.nodes[2].presences.isEmpty)
    }

    /// A peer's pending placeholders show in its presence while they load ("dropping 2 here"), and
    /// leave it when they are committed or withdrawn, whatever the presence set says.
    @Test func pendingPlaceholdersShowInThePresenceWhileTheyLoad() throws {
        let network = Self.line(2, seed: 8)
        network.nodes[0].edit { $0.append(contentsOf: ["milk", "eggs"]) }
        try Self.set(Presence(name: "Ana", pendingDrops: [.init(count: 9, after: nil)]), on: network, 0)
        network.runUntilQuiet()
        #expect(network.nodes[1].presences[ReplicaID(1)]?.pendingDrops == [])
        let milk = try #require(network.nodes[0].replica.read { $0.first?.id.rowID })
        let ids = network.nodes[0].edit { $0.insertPlaceholders(showing: ["…", "…"], at: 1).ids }
        network.runUntilQuiet()
        #expect(network.nodes[1].presences[ReplicaID(1)]?.pendingDrops == [.init(count: 2, after: milk)])
        #expect(network.nodes[1].replica.read { $0.count } == 2, "placeholders stay local")
        network.nodes[0].edit { list in
            _ = try? list.commitPlaceholder(ids[0], value: "bread")
            _ = try? list.removePlaceholder(ids[1])
        }
        network.runUntilQuiet()
        #expect(network.nodes[1].presences[ReplicaID(1)]?.pendingDrops == [])
        #expect(network.nodes[1].presences[ReplicaID(1)]?.name == "Ana")
    }

    /// A peer flooding PRESENCE with ever newer updates of ever more invented peers fills at most the
    /// table's 256 entries, and each other connection's queue holds at most one update per peer held.
    @Test func aFloodOfPresenceIsBounded() throws {
        let network = Self.line(3, seed: 9)
        let hub = network.nodes[1]
        let fromFirst = try #require(hub.sessions.keys.min())
        for round in 0..<20 {
            let updates = (0..<PresenceTable.maximumPeerCount).map { offset in
                PresenceTable.Update(
                    replica: ReplicaID(UInt64(1000 + round * 300 + offset)), clock: UInt64(round + 1),
                    presence: Presence(name: "fake \(offset)", selection: []))
            }
            hub.receivePresence(updates, from: fromFirst)
        }
        #expect(hub.presence.table.updates.count == PresenceTable.maximumPeerCount)
        for session in hub.sessions.values {
            #expect(session.pendingPresence.count <= PresenceTable.maximumPeerCount + 1)
        }
        network.runUntilQuiet()
        #expect(network.nodes[2].presences.count == PresenceTable.maximumPeerCount)
        #expect(network.errors.isEmpty)
    }

    /// A presence beyond its limits is refused and changes nothing.
    @Test func aPresenceBeyondItsLimitsIsRefused() throws {
        let network = Self.line(2, seed: 6)
        try Self.set(Presence(name: "Ana"), on: network, 0)
        let long = Presence(name: String(repeating: "é", count: 33))
        #expect(throws: PresenceError.beyondLimits("the name has 66 bytes of UTF-8, more than 64")) {
            try Self.set(long, on: network, 0)
        }
        network.runUntilQuiet()
        #expect(network.nodes[1].presences[ReplicaID(1)]?.name == "Ana")
    }

    /// A peer that restarts (a new node, its clock from the wall clock again) replaces its last
    /// presence: the wall clock moved on, so its updates are newer.
    @Test func aRestartedPeersPresenceReplacesItsLastOne() throws {
        let network = Self.line(2, seed: 7)
        try network.nodes[0].setPresence(Presence(name: "first run"), wallClockMilliseconds: 5_000, now: Self.at(0))
        network.runUntilQuiet()
        let restarted = SyncNode(replica: ReplicatedList<String>(replicaID: ReplicaID(1)), settings: .test)
        let update = PresenceTable.Update(replica: ReplicaID(1), clock: 9_000, presence: Presence(name: "second run"))
        try restarted.setPresence(update.presence, wallClockMilliseconds: update.clock, now: Self.at(1))
        #expect(restarted.presence.own == update)
        network.nodes[1].receivePresence([update], from: ConnectionID(99))
        #expect(network.nodes[1].presences[ReplicaID(1)]?.name == "second run")
    }

    /// Random topologies, random presences and edits, links cut and made again, random delivery: once
    /// all links are up and quiet, every node holds every other node's latest update and no one its
    /// own. 8 seeds in `swift test`, 2,000 in the long run; `LISTSYNC_PRESENCE_SEEDS=N` runs N seeds
    /// from 0, `LISTSYNC_PRESENCE_SEED=S` replays one.
    @Test(arguments: RunSize.seeds("LISTSYNC_PRESENCE_SEEDS", quick: 8, long: 2_000))
    func presencesConvergeOverRandomTopologiesAndPartitions(seed: UInt64) throws {
        try Self.converge(seed: seed)
    }

    @Test func replayPresenceSeed() throws {
        try Self.converge(
            seed: ProcessInfo.processInfo.environment["LISTSYNC_PRESENCE_SEED"].flatMap { UInt64($0) } ?? 3)
    }

    /// One seed of ``presencesConvergeOverRandomTopologiesAndPartitions(seed:)``.
    static func converge(seed: UInt64) throws {
        announceSeed(
            seed, of: "presence convergence",
            replay: "LISTSYNC_PRESENCE_SEED=\(seed) swift test --filter replayPresenceSeed")
        var generator = SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ 25)
        let count = Int.random(in: 2...6, using: &generator)
        let network = MemoryNetwork(count: count, seed: seed)
        for node in network.nodes { node.tickPresence(now: at(0)) }
        var links: [Int: (Int, Int)] = [:]
        func link(_ a: Int, _ b: Int) { links[network.link(a, b)] = (a, b) }
        for node in 1..<count { link(Int.random(in: 0..<node, using: &generator), node) }
        for step in 0..<200 {
            let node = Int.random(in: 0..<count, using: &generator)
            let seconds = Double(step) / 20
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<4:
                let rows = network.nodes[node].replica.read { list in list.compactMap(\.id.rowID) }
                let selection = rows.filter { _ in Int.random(in: 0..<4, using: &generator) == 0 }
                try set(Presence(name: "\(node).\(step)", selection: selection), on: network, node, at: seconds)
            case 4:
                try set(nil, on: network, node, at: seconds)
            case 5..<8:
                network.nodes[node].edit { RandomEdits.apply(to: $0, label: "\(node).\(step)", using: &generator) }
            case 8:
                if let (index, _) = links.randomElement(using: &generator) {
                    network.cut(index)
                    links[index] = nil
                }
            default:
                let other = Int.random(in: 0..<count, using: &generator)
                if other != node { link(node, other) }
            }
            for _ in 0..<Int.random(in: 0...20, using: &generator) { network.step() }
        }
        for node in 1..<count { link(node - 1, node) }
        network.runUntilQuiet()
        #expect(network.errors.isEmpty, "seed \(seed): \(network.errors)")
        for (index, node) in network.nodes.enumerated() {
            #expect(node.presence.table.update(of: node.replicaID) == nil, "seed \(seed)")
            for (other, peer) in network.nodes.enumerated() where other != index {
                #expect(
                    node.presence.table.update(of: peer.replicaID) == peer.presence.own,
                    "seed \(seed): node \(index) holds \(String(describing: node.presence.table.update(of: peer.replicaID))) of node \(other)"
                )
            }
        }
    }
}
