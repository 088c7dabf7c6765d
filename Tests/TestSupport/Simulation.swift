import Foundation
import ListSync

/// A seeded, reproducible run of several replicas editing concurrently and syncing over an unreliable
/// network: messages are delayed, reordered, duplicated and lost to partitions that later heal.
///
/// After every local operation and every delivery the touched replica's invariants are checked and
/// its change batch is applied to a mirror array, which must equal the replica's rows.
///
/// With `placeholders: true`, replicas also insert, commit and withdraw placeholders at random (the
/// other operations then target confirmed rows only); every replica must show exactly its own pending
/// placeholders at every step. Without it, runs are exactly those of earlier versions, seed for seed.
public final class Simulation {
    /// What went wrong, with the seed that reproduces it.
    public struct Failure: Error, CustomStringConvertible {
        /// The seed of the run.
        public let seed: UInt64
        /// The step at which it failed.
        public let step: Int
        /// What was wrong.
        public let message: String

        /// `seed S, step N: message`.
        public var description: String { "seed \(seed), step \(step): \(message)" }
    }

    /// A change set on its way to replica `to`.
    private struct Message {
        let from: Int
        let to: Int
        let bytes: [UInt8]
    }

    /// The seed of the run.
    public let seed: UInt64
    /// The replicas.
    public private(set) var replicas: [ReplicatedList<String>]
    private var mirrors: [BatchMirror<String>]
    private var rng: SplitMix64
    private var inFlight: [Message] = []
    /// Replicas on side A of the current partition (nil when none).
    private var partition: Set<Int>?
    private var step = 0
    private var nextValue = 0
    /// Every row ever inserted, and every row ever deleted.
    public private(set) var inserted = Set<RowID>()
    public private(set) var deleted = Set<RowID>()
    /// Counts of what happened.
    public private(set) var operations = 0
    public private(set) var deliveries = 0
    /// Counts of placeholders inserted, committed and withdrawn.
    public private(set) var placeholderCounts = (inserted: 0, committed: 0, withdrawn: 0)
    /// Whether replicas also make placeholders.
    private let usesPlaceholders: Bool
    /// Each replica's pending placeholders.
    private var pending: [Set<PlaceholderID>]

    /// A run of `replicaCount` replicas drawn from `seed`; `placeholders` adds placeholder operations.
    public init(seed: UInt64, replicaCount: Int, placeholders: Bool = false) {
        self.seed = seed
        usesPlaceholders = placeholders
        pending = Array(repeating: [], count: replicaCount)
        var rng = SplitMix64(seed: seed)
        replicas = (0..<replicaCount).map { _ in ReplicatedList<String>(replicaID: ReplicaID.random(using: &rng)) }
        self.rng = rng
        mirrors = Array(repeating: BatchMirror(), count: replicaCount)
    }

    /// Runs `operationCount` local operations interleaved with sends, deliveries and partitions, then
    /// heals and syncs everything, and checks convergence.
    public func run(operations operationCount: Int) throws(Failure) {
        while operations < operationCount {
            step += 1
            switch Int.random(in: 0..<100, using: &rng) {
            case 0..<50: try localOperation(on: Int.random(in: 0..<replicas.count, using: &rng))
            case 50..<70:
                send(
                    from: Int.random(in: 0..<replicas.count, using: &rng),
                    to: Int.random(in: 0..<replicas.count, using: &rng))
            case 70..<95: try deliverOne()
            case 95..<98: startOrHealPartition()
            default: inFlight.shuffle(using: &rng)
            }
        }
        try settle()
    }

    /// One random local operation on replica `index`.
    public func localOperation(on index: Int) throws(Failure) {
        if usesPlaceholders && Int.random(in: 0..<100, using: &rng) < 20 {
            return try placeholderOperation(on: index)
        }
        let list = replicas[index]
        let change: ListChange
        // With placeholders pending, offsets count confirmed rows only and `real` maps them to indexes.
        let confirmed = pending[index].isEmpty ? nil : list.indices.filter { !list[$0].isPending }
        let count = confirmed?.count ?? list.count
        func real(_ offset: Int) -> Int { confirmed.map { offset < $0.count ? $0[offset] : list.count } ?? offset }
        func real(_ offsets: IndexSet) -> IndexSet { confirmed == nil ? offsets : IndexSet(offsets.map(real)) }
        // Lists past 60 rows lean toward deletes, so they stay small enough to check fully at every step.
        let roll = Int.random(in: 0..<100, using: &rng) + (count > 60 ? 20 : 0)
        if count == 0 || roll < 25 {
            let at = real(Int.random(in: 0...count, using: &rng))
            change = list.insert(newValue(), at: at)
            inserted.insert(list[at].rowID!)
        } else if roll < 35 {
            let values = (0..<Int.random(in: 2...5, using: &rng)).map { _ in newValue() }
            let at = real(Int.random(in: 0...count, using: &rng))
            change = list.insert(contentsOf: values, at: at)
            for offset in at..<(at + values.count) { inserted.insert(list[offset].rowID!) }
        } else if roll < 55 {
            change = list.move(
                fromOffsets: real(rng.offsets(in: count, maximum: 1)),
                toOffset: real(Int.random(in: 0...count, using: &rng)))
        } else if roll < 70 {
            let source =
                Bool.random(using: &rng)
                ? rng.offsets(in: count, maximum: 4) : rng.contiguousOffsets(in: count, count: 3)
            change = list.move(fromOffsets: real(source), toOffset: real(Int.random(in: 0...count, using: &rng)))
        } else if roll < 85 || roll >= 100 {
            let offsets = real(rng.offsets(in: count, maximum: 2))
            for offset in offsets { deleted.insert(list[offset].rowID!) }
            change = list.remove(atOffsets: offsets)
        } else {
            change = list.updateValue(newValue(), at: real(Int.random(in: 0..<count, using: &rng)))
        }
        operations += 1
        try check(index, after: change)
    }

    /// Inserts one to three placeholders at a random index, or commits or withdraws a pending one.
    private func placeholderOperation(on index: Int) throws(Failure) {
        let list = replicas[index]
        let roll = Int.random(in: 0..<100, using: &rng)
        let change: ListChange
        if pending[index].isEmpty || roll < 40 {
            let values = (0..<Int.random(in: 1...3, using: &rng)).map { _ in "loading" }
            let (ids, inserted) = list.insertPlaceholders(
                showing: values, at: Int.random(in: 0...list.count, using: &rng))
            pending[index].formUnion(ids)
            placeholderCounts.inserted += ids.count
            change = inserted
        } else {
            let id = pending[index].sorted()[Int.random(in: 0..<pending[index].count, using: &rng)]
            change = try resolve(id, on: index, commit: roll < 75)
        }
        operations += 1
        try check(index, after: change)
    }

    /// Commits (checking the row lands at the placeholder's index) or withdraws placeholder `id`.
    private func resolve(_ id: PlaceholderID, on index: Int, commit: Bool) throws(Failure) -> ListChange {
        let list = replicas[index]
        pending[index].remove(id)
        do {
            guard commit else {
                placeholderCounts.withdrawn += 1
                return try list.removePlaceholder(id)
            }
            let before = list.placeholderIndex(id)
            let (row, change) = try list.commitPlaceholder(id, value: newValue())
            guard list.index(forRow: row) == before else { throw fail("committed \(id) moved from \(before!)") }
            inserted.insert(row)
            placeholderCounts.committed += 1
            return change
        } catch {
            throw fail("replica \(index): \(error)")
        }
    }

    private func newValue() -> String {
        nextValue += 1
        return "v\(nextValue)"
    }

    /// Queues what `to` lacks from `from`, unless a partition separates them.
    public func send(from: Int, to: Int) {
        guard from != to, !isPartitioned(from, to) else { return }
        let changes = replicas[from].changes(since: replicas[to].versionVector)
        inFlight.append(Message(from: from, to: to, bytes: changes.encoded()))
    }

    private func isPartitioned(_ a: Int, _ b: Int) -> Bool {
        guard let partition else { return false }
        return partition.contains(a) != partition.contains(b)
    }

    /// Delivers a random message; sometimes keeps a copy to deliver again later.
    private func deliverOne() throws(Failure) {
        guard !inFlight.isEmpty else { return }
        let index = Int.random(in: 0..<inFlight.count, using: &rng)
        let message = inFlight[index]
        if Int.random(in: 0..<5, using: &rng) != 0 { inFlight.remove(at: index) }
        if isPartitioned(message.from, message.to) {
            inFlight.removeAll { $0.from == message.from && $0.to == message.to }
            return
        }
        try deliver(message)
    }

    private func deliver(_ message: Message) throws(Failure) {
        let change: ListChange
        do {
            change = try replicas[message.to].merge(ChangeSet(decoding: message.bytes))
        } catch {
            throw fail("merge into replica \(message.to) failed: \(error)")
        }
        deliveries += 1
        try check(message.to, after: change)
    }

    private func startOrHealPartition() {
        if partition == nil {
            var side = Set<Int>()
            for index in replicas.indices where Bool.random(using: &rng) { side.insert(index) }
            partition = side
        } else {
            partition = nil
        }
    }

    private func check(_ index: Int, after change: ListChange) throws(Failure) {
        replicas[index]._checkInvariants()
        if usesPlaceholders {
            let shown = Set(replicas[index].lazy.compactMap(\.id.placeholderID))
            guard shown == pending[index], replicas[index].pendingCount == shown.count else {
                throw fail("replica \(index) shows placeholders \(shown.sorted()), made \(pending[index].sorted())")
            }
        }
        do {
            try mirrors[index].apply(change, from: replicas[index])
        } catch {
            throw fail("replica \(index): \(error)")
        }
    }

    /// Heals the partition, delivers every message in flight, then syncs all pairs until every replica
    /// has every operation; checks that all replicas are equal and no row was duplicated, lost or revived.
    public func settle() throws(Failure) {
        for index in replicas.indices {
            for id in pending[index].sorted() {
                try check(index, after: try resolve(id, on: index, commit: Bool.random(using: &rng)))
            }
        }
        partition = nil
        while !inFlight.isEmpty { try deliver(inFlight.removeFirst()) }
        for _ in 0..<2 {
            for from in replicas.indices {
                for to in replicas.indices where from != to {
                    send(from: from, to: to)
                    try deliver(inFlight.removeLast())
                }
            }
        }
        let reference = replicas[0]
        let expected = Array(reference)
        for (index, replica) in replicas.enumerated() {
            guard replica.versionVector == reference.versionVector else {
                throw fail("replica \(index) version vector \(replica.versionVector) != \(reference.versionVector)")
            }
            guard Array(replica) == expected else { throw fail("replica \(index) rows differ from replica 0") }
            guard replica.snapshot() == reference.snapshot() else { throw fail("replica \(index) snapshot differs") }
        }
        let ids = expected.compactMap(\.rowID)
        guard ids.count == expected.count else { throw fail("a placeholder remains after settling") }
        guard Set(ids).count == ids.count else { throw fail("a row appears twice") }
        let live = inserted.subtracting(deleted)
        guard Set(ids) == live else {
            let lost = live.subtracting(ids).count
            let revived = Set(ids).intersection(deleted).count
            throw fail("\(lost) rows lost, \(revived) deleted rows present")
        }
    }

    private func fail(_ message: String) -> Failure {
        Failure(seed: seed, step: step, message: message)
    }
}
