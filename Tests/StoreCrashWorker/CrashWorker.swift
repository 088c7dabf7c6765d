import Foundation
import ListSync
import ListSyncStore
import TestSupport

/// Writes `line` and a newline to stdout in one `write`, unbuffered, so a kill never loses an emitted line.
func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Random operations against a durable replica and an in-memory peer, reporting what became durable.
struct CrashWorker {
    let store: DurableReplica<String>
    private var rng: SplitMix64
    private let peer: ReplicatedList<String>
    private let seed: UInt64
    private var reportedDurable: UInt64 = 0
    private var lastTicket = DurabilityTicket(sequence: 0)

    init(store: DurableReplica<String>, seed: UInt64) throws {
        self.store = store
        self.seed = seed
        rng = SplitMix64(seed: seed)
        peer = try ReplicatedList<String>(snapshot: store.read { $0.snapshot() }, replicaID: .random(using: &rng))
    }

    /// Performs `operations` random steps.
    mutating func run(operations: Int) async throws {
        for step in 0..<operations {
            let choice = rng.next() % 100
            let random = rng.next()
            let count = store.read { $0.count }
            let value = "v\(seed)-\(step)"
            let kind = count == 0 || (count < 120 && choice < 40) ? 0 : choice
            if (75..<85).contains(kind) {
                editPeer(random: random, value: value)
                continue
            }
            if kind >= 95 {
                try peer.merge(store.read { [peerVersion = peer.versionVector] in $0.changes(since: peerVersion) })
                continue
            }
            // A merge names its change set up front: if the kill lands before its `op` line, the oracle
            // knows exactly what may have become durable.
            let merging = kind >= 85 ? peer.changes(since: store.read { $0.versionVector }) : nil
            emit("begin \(step)" + (merging.map { " " + hex($0.encoded()) } ?? ""))
            let commit: Commit
            switch kind {
            case 0..<15:
                let block = Int(random % 3) + 1
                commit = try store.update { list in
                    let values = (0..<block).map { value + ".\($0)" }
                    list.insert(contentsOf: values, at: Int(random % UInt64(list.count + 1)))
                }
            case 15..<50:
                commit = try store.update { list in
                    var source = SplitMix64(seed: random)
                    let offsets = source.offsets(in: list.count, maximum: 3)
                    list.move(fromOffsets: offsets, toOffset: Int(random % UInt64(list.count + 1)))
                }
            case 50..<62:
                commit = try store.update { list in list.remove(at: Int(random % UInt64(list.count))) }
            case 62..<75:
                commit = try store.update { list in list.updateValue(value, at: Int(random % UInt64(list.count))) }
            default:
                commit = try store.merge(merging ?? ChangeSet())
            }
            let highest = store.read { $0.nextOperationCounter } - 1
            emit("op \(step) \(commit.ticket.sequence) \(hex(commit.changes.encoded())) \(highest)")
            lastTicket = commit.ticket
            if step % 8 == 7 { try await store.waitUntilDurable(lastTicket) }
            reportDurable()
        }
    }

    /// Prints a `durable` line when the store's durable ticket moved.
    private mutating func reportDurable() {
        let durable = store.durableTicket.sequence
        guard durable > reportedDurable else { return }
        reportedDurable = durable
        emit("durable \(durable)")
    }

    /// A random local edit on the peer.
    private func editPeer(random: UInt64, value: String) {
        var source = SplitMix64(seed: random)
        if peer.isEmpty || random % 3 == 0 {
            peer.insert("peer " + value, at: Int(random % UInt64(peer.count + 1)))
        } else if random % 3 == 1 {
            let offsets = source.offsets(in: peer.count, maximum: 2)
            peer.move(fromOffsets: offsets, toOffset: Int(random % UInt64(peer.count + 1)))
        } else {
            peer.updateValue("peer " + value, at: Int(random % UInt64(peer.count)))
        }
    }

    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}
