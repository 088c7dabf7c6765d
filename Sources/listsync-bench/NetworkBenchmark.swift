import Dispatch
import Foundation
import ListSync
import ListSyncNetwork

/// Sync over loopback TCP: convergence of 3 and 5 peers after concurrent edits, live throughput between
/// two peers, bytes on the wire per operation, and the latency from an edit on one peer to the change
/// event reaching the other peer's app. Prints one JSON object.
enum NetworkBenchmark {
    /// A list peer.
    private typealias Peer = SyncPeer<ReplicatedList<String>>

    /// The longest wait for convergence, in seconds.
    private static let convergenceLimit: Double = 600

    /// `[--ops N | N]`: operations per peer (default 10,000).
    static func run(arguments: ArraySlice<String>) throws {
        var operations = 10_000
        var rest = arguments
        while let argument = rest.popFirst() {
            let text = argument == "--ops" ? rest.popFirst() ?? "" : argument
            guard let value = Int(text), value > 0 else { throw UsageError("network takes --ops N, not '\(argument)'") }
            operations = value
        }
        var result = JSONObject()
        result["bench"] = "network"
        result.set("ops_per_peer", operations)
        for peerCount in [3, 5] {
            let (seconds, bytes) = try converge(peerCount: peerCount, operations: operations)
            result.set("converge_\(peerCount)_peers_s", seconds)
            result.set("converge_\(peerCount)_peers_bytes_per_op", bytes / Double(peerCount * operations))
        }
        let (opsPerSecond, bytesPerOperation) = try liveThroughput(operations: operations * 5)
        result.set("live_ops_per_s", opsPerSecond)
        result.set("live_bytes_per_op", bytesPerOperation)
        let latencies = try eventLatencies(samples: min(operations, 1_000))
        result.set("event_latency_samples", latencies.count)
        result.set("event_latency_median_ms", latencies[latencies.count / 2] * 1e3)
        result.set("event_latency_p99_ms", latencies[min(latencies.count - 1, latencies.count * 99 / 100)] * 1e3)
        print(result)
    }

    /// A quiet peer for replica `id`.
    private static func makePeer(_ id: UInt64) throws -> Peer {
        let secret = Array("listsync-bench network secret, 32 bytes+".utf8)
        var configuration = PeerConfiguration(sync: SyncSettings(document: "bench", secret: secret))
        configuration.log = { _ in }
        return try Peer(replica: ReplicatedList(replicaID: ReplicaID(id)), configuration: configuration)
    }

    /// Two peers, the second connected to the first and live (stop both when done).
    private static func connectedPair() throws -> (sender: Peer, receiver: Peer) {
        let sender = try makePeer(1)
        let receiver = try makePeer(2)
        do {
            receiver.connect(to: try sender.listen(on: .loopbackIPv4()))
            try wait("two peers connecting") { sender.liveConnectionCount == 1 && receiver.liveConnectionCount == 1 }
        } catch {
            sender.stop()
            receiver.stop()
            throw error
        }
        return (sender, receiver)
    }

    /// Polls until `condition` holds; throws after ``convergenceLimit`` seconds.
    private static func wait(_ what: String, _ condition: () -> Bool) throws {
        let start = DispatchTime.now().uptimeNanoseconds
        while !condition() {
            guard Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 < convergenceLimit else {
                throw UsageError("\(what) did not happen within \(Int(convergenceLimit)) s")
            }
            usleep(2_000)
        }
    }

    /// Peers in a ring edit concurrently; returns seconds from the first edit until all have the same
    /// version vector, and the bytes all peers sent.
    private static func converge(peerCount: Int, operations: Int) throws -> (Double, Double) {
        let peers = try (1...peerCount).map { try makePeer(UInt64($0)) }
        defer { for peer in peers { peer.stop() } }
        let endpoints = try peers.map { try $0.listen(on: .loopbackIPv4()) }
        for index in peers.indices { peers[index].connect(to: endpoints[(index + 1) % peerCount]) }
        try wait("\(peerCount) peers connecting") { peers.allSatisfy { $0.liveConnectionCount == 2 } }
        let (seconds, _) = try Measurement.seconds {
            DispatchQueue.concurrentPerform(iterations: peerCount) { index in
                var generator = SplitMix64(seed: UInt64(index + 1))
                for step in 0..<operations {
                    peers[index].edit { randomEdit($0, label: "\(index).\(step)", using: &generator) }
                }
            }
            let target = peers.reduce(VersionVector()) { $0.union($1.read(\.versionVector)) }
            try wait("\(peerCount) peers converging") { peers.allSatisfy { $0.read(\.versionVector) == target } }
        }
        Measurement.progress("network: \(peerCount) peers converged in \(String(format: "%.3f", seconds)) s")
        return (seconds, Double(peers.reduce(0) { $0 + $1.statistics.bytesSent }))
    }

    /// One peer edits as fast as it can while the other receives; returns operations per second until
    /// the receiver has everything, and bytes sent per operation.
    private static func liveThroughput(operations: Int) throws -> (Double, Double) {
        let (sender, receiver) = try connectedPair()
        defer {
            sender.stop()
            receiver.stop()
        }
        let bytesBefore = sender.statistics.bytesSent
        var generator = SplitMix64(seed: 99)
        let (seconds, _) = try Measurement.seconds {
            for step in 0..<operations {
                sender.edit { randomEdit($0, label: "live \(step)", using: &generator) }
            }
            let target = sender.read(\.versionVector)
            try wait("live changes arriving") { receiver.read(\.versionVector) == target }
        }
        let bytes = Double(sender.statistics.bytesSent - bytesBefore)
        return (Double(operations) / seconds, bytes / Double(operations))
    }

    /// One peer makes `samples` inserts, one at a time; returns, sorted, the seconds from each edit's start
    /// to its change event reaching a consumer of the other peer's ``SyncPeer/changeEvents()`` (a task,
    /// as an app's handler would be).
    private static func eventLatencies(samples: Int) throws -> [Double] {
        let (sender, receiver) = try connectedPair()
        defer {
            sender.stop()
            receiver.stop()
        }
        let arrived = DispatchSemaphore(value: 0)
        let events = receiver.changeEvents()
        let consumer = Task.detached {
            for await event in events where event.origin != .local { arrived.signal() }
        }
        defer { consumer.cancel() }
        var generator = SplitMix64(seed: 7)
        var latencies: [Double] = []
        for step in 0..<samples {
            let start = DispatchTime.now().uptimeNanoseconds
            // An insert always changes the rows (a random move may land where the row is).
            sender.edit { list in list.insert("latency \(step)", at: Int(generator.next() % UInt64(list.count + 1))) }
            guard arrived.wait(timeout: .now() + .seconds(10)) == .success else {
                throw UsageError("edit \(step) did not reach the other peer's events within 10 s")
            }
            latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        Measurement.progress("network: \(samples) edit-to-event latencies measured")
        return latencies.sorted()
    }

    /// A random insert (half), move, value update or delete.
    private static func randomEdit(_ list: ReplicatedList<String>, label: String, using generator: inout SplitMix64) {
        let count = list.count
        switch count < 2 ? 0 : generator.next() % 8 {
        case 0...3: list.insert(label, at: Int(generator.next() % UInt64(count + 1)))
        case 4:
            list.move(
                fromOffsets: [Int(generator.next() % UInt64(count))],
                toOffset: Int(generator.next() % UInt64(count + 1)))
        case 5, 6: list.updateValue(label, at: Int(generator.next() % UInt64(count)))
        default: list.remove(at: Int(generator.next() % UInt64(count)))
        }
    }
}
