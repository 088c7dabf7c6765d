import Foundation
import ListSync
import ListSyncNetwork

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Replicas as real TCP peers on 127.0.0.1: each listens on a free port and dials every later one,
/// all with one generated secret. A partition disconnects links; healing redials them.
final class LoopbackCluster: Cluster {
    let names: [String]
    /// One peer per replica.
    private let peers: [SyncPeer<ReplicatedList<Entry>>]
    /// The port each peer listens on.
    let endpoints: [Endpoint]
    /// The groups of linked replicas (one group when not partitioned).
    private var groups: [[Int]]

    /// Starts `names.count` peers with replica IDs `replicaIDs` (random when nil) and links them all.
    /// - Throws: ``SocketError`` when a socket cannot be opened or bound.
    init(names: [String], replicaIDs: [ReplicaID]? = nil, document: String = "syncdemo") throws(SocketError) {
        self.names = names
        let secret = (0..<32).map { _ in UInt8.random(in: .min ... .max) }  // SystemRandomNumberGenerator: OS CSPRNG
        var configuration = PeerConfiguration(sync: SyncSettings(document: document, secret: secret))
        configuration.reconnectInitialDelay = .milliseconds(20)
        configuration.reconnectMaximumDelay = .milliseconds(500)
        configuration.log = { _ in }  // the cluster reports convergence itself
        var peers: [SyncPeer<ReplicatedList<Entry>>] = []
        var endpoints: [Endpoint] = []
        do throws(SocketError) {
            for index in names.indices {
                let replica = ReplicatedList<Entry>(replicaID: replicaIDs?[index] ?? .random())
                replica.enableUndo()
                let peer = try SyncPeer(replica: replica, configuration: configuration)
                peers.append(peer)
                endpoints.append(try peer.listen(on: .loopbackIPv4()))
            }
        } catch {
            for peer in peers { peer.stop() }
            throw error
        }
        self.peers = peers
        self.endpoints = endpoints
        groups = [Array(names.indices)]
        setLinks(to: groups)
    }

    func edit<Result: Sendable>(_ index: Int, _ body: (ReplicatedList<Entry>) throws -> Result) rethrows -> Result {
        try peers[index].edit(body)
    }

    func read<Result: Sendable>(_ index: Int, _ body: (ReplicatedList<Entry>) throws -> Result) rethrows -> Result {
        try peers[index].read(body)
    }

    func setPresence(_ index: Int, _ presence: Presence) {
        // The commands that build presences keep them within their limits.
        try? peers[index].setPresence(presence)
    }

    func ownPresence(_ index: Int) -> Presence? { peers[index].ownPresence }

    func presences(seenBy index: Int) -> [Presence] {
        peers[index].presences.sorted { $0.key < $1.key }.map(\.value)
    }

    func partition(_ groups: [[Int]]) { setLinks(to: linkedGroups(groups, count: names.count)) }

    func heal() { setLinks(to: [Array(names.indices)]) }

    /// Dials the links inside each group and drops the links across groups (replica i dials j > i).
    private func setLinks(to newGroups: [[Int]]) {
        groups = newGroups
        let groupOf = Dictionary(
            uniqueKeysWithValues: newGroups.enumerated().flatMap { group, members in
                members.map { ($0, group) }
            })
        for i in names.indices {
            for j in names.indices where j > i {
                if groupOf[i] == groupOf[j] {
                    peers[i].connect(to: endpoints[j])
                } else {
                    peers[i].disconnect(from: endpoints[j])
                }
            }
        }
    }

    func settle(timeout: Duration) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            let linked = groups.allSatisfy { group in
                group.allSatisfy { peers[$0].liveConnectionCount >= group.count - 1 }
            }
            if linked && groups.allSatisfy({ converged($0) && presencesArrived($0) }) { return true }
            if clock.now >= deadline { return false }
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    /// Whether every replica of `group` sees the presences of the others in it (without the rows it
    /// does not show, as ``SyncPeer/presences`` gives them).
    private func presencesArrived(_ group: [Int]) -> Bool {
        group.allSatisfy { index in
            let seen = Set(peers[index].presences.values)
            let others = group.filter { $0 != index }.compactMap { peers[$0].ownPresence }
            return peers[index].read { list in
                others.allSatisfy { seen.contains($0.filteringRows { list.index(forRow: $0) != nil }) }
            }
        }
    }

    var traffic: Traffic {
        peers.reduce(into: Traffic()) { traffic, peer in
            let statistics = peer.statistics
            traffic.changeSets += statistics.changeSetsSent
            traffic.bytes += statistics.bytesSent
        }
    }

    func shutDown() {
        for peer in peers { peer.stop() }
    }
}
