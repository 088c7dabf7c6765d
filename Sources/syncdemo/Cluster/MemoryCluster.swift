import ListSync

/// Replicas in this process joined by a simulated network with seeded, reproducible faults.
///
/// Each edit's change set (everything since the editing replica's version vector before the edit) is
/// encoded and queued as one message to every linked replica. Messages arrive in a random order drawn
/// from the seed, when ``deliverSome()`` or ``settle(timeout:)`` runs. Faults are decided when a message
/// is sent: it is lost with probability ``Faults/dropRate``, or queued twice with probability
/// ``Faults/duplicateRate``. A partition cuts links: nothing is sent across groups, and messages already
/// in flight to another group are lost when they would arrive (as a cut TCP connection loses what it
/// carried). Anti-entropy in ``settle(timeout:)`` repairs every loss.
final class MemoryCluster: Cluster {
    /// A change set on its way from one replica to another.
    private struct Message {
        /// The sending replica.
        var from: Int
        /// The receiving replica.
        var to: Int
        /// The encoded change set.
        var bytes: [UInt8]
    }

    /// What the faults and repairs did.
    struct Statistics: Hashable, Sendable, Encodable {
        /// Messages lost to the drop rate.
        var dropped = 0
        /// Messages queued twice by the duplicate rate.
        var duplicated = 0
        /// Messages lost because a partition cut their link while they were in flight.
        var cut = 0
        /// Change sets sent by anti-entropy to repair what a replica lacked when settling.
        var repairs = 0
    }

    let names: [String]
    /// One list per replica.
    private let replicas: [ReplicatedList<Entry>]
    /// The fault rates.
    private let faults: Faults
    /// Decides faults and delivery order.
    private var generator: SplitMix64
    /// Messages sent and not yet delivered or lost.
    private var inFlight: [Message] = []
    /// The groups of linked replicas (one group when not partitioned).
    private var groups: [[Int]]
    /// The group number of each replica.
    private var groupOf: [Int]
    private(set) var traffic = Traffic()
    /// What the faults and repairs did so far.
    private(set) var statistics = Statistics()
    /// Each replica's presence, once set; the linked replicas see it at once (presence is ephemeral:
    /// this transport neither loses nor delays it).
    private var ownPresences: [Presence?]
    /// Change sets that did not decode or merge, with the reason; empty unless the core has a bug.
    private(set) var errors: [String] = []

    /// `names.count` replicas with IDs `replicaIDs`, all linked, faults and delivery order drawn from `seed`.
    init(names: [String], replicaIDs: [ReplicaID], seed: UInt64, faults: Faults = Faults()) {
        precondition(names.count == replicaIDs.count, "one replica ID per name")
        self.names = names
        ownPresences = Array(repeating: nil, count: names.count)
        replicas = replicaIDs.map { ReplicatedList(replicaID: $0) }
        for replica in replicas { replica.enableUndo() }
        self.faults = faults
        generator = SplitMix64(seed: seed)
        groups = [Array(names.indices)]
        groupOf = Array(repeating: 0, count: names.count)
    }

    func edit<Result: Sendable>(_ index: Int, _ body: (ReplicatedList<Entry>) throws -> Result) rethrows -> Result {
        let replica = replicas[index]
        let before = replica.versionVector
        defer { broadcast(replica.changes(since: before), from: index) }
        return try body(replica)
    }

    func read<Result: Sendable>(_ index: Int, _ body: (ReplicatedList<Entry>) throws -> Result) rethrows -> Result {
        try body(replicas[index])
    }

    func partition(_ groups: [[Int]]) { link(linkedGroups(groups, count: names.count)) }

    func heal() { link([Array(names.indices)]) }

    /// Delivers a random number of the messages in flight, each picked at random.
    func deliverSome() {
        for _ in 0..<Int.random(in: 0...inFlight.count, using: &generator) { deliverOne() }
    }

    /// Delivers everything in flight, then runs anti-entropy inside each group until no replica lacks
    /// anything a linked one has. Anti-entropy runs as a reliable session (request and reply retried
    /// until they arrive), so faults do not touch it.
    /// - Returns: whether every group converged before `timeout`.
    func settle(timeout: Duration) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while !inFlight.isEmpty { deliverOne() }
        for group in groups {
            while repairRound(group) > 0 && clock.now < deadline {}
        }
        return groups.allSatisfy { converged($0) }
    }

    func shutDown() { inFlight.removeAll() }

    func setPresence(_ index: Int, _ presence: Presence) { ownPresences[index] = presence }

    func ownPresence(_ index: Int) -> Presence? { ownPresences[index] }

    func presences(seenBy index: Int) -> [Presence] {
        names.indices.filter { $0 != index && groupOf[$0] == groupOf[index] }.compactMap { ownPresences[$0] }
    }

    /// Sets the groups of linked replicas.
    private func link(_ newGroups: [[Int]]) {
        groups = newGroups
        for (number, group) in newGroups.enumerated() {
            for member in group { groupOf[member] = number }
        }
    }

    /// Queues `changes` from `sender` to every replica linked to it, unless it is empty.
    private func broadcast(_ changes: ChangeSet, from sender: Int) {
        guard !changes.isEmpty else { return }
        let bytes = changes.encoded()
        for receiver in names.indices where receiver != sender && groupOf[receiver] == groupOf[sender] {
            send(Message(from: sender, to: receiver, bytes: bytes))
        }
    }

    /// Counts `message` as sent and queues it, or loses it, or queues it twice, as the faults decide.
    private func send(_ message: Message) {
        count(message.bytes)
        if chance(faults.dropRate) {
            statistics.dropped += 1
            return
        }
        inFlight.append(message)
        if chance(faults.duplicateRate) {
            statistics.duplicated += 1
            count(message.bytes)
            inFlight.append(message)
        }
    }

    /// Delivers one message picked at random, or loses it when its link is cut.
    private func deliverOne() {
        inFlight.swapAt(Int.random(in: inFlight.indices, using: &generator), inFlight.count - 1)
        let message = inFlight.removeLast()
        guard groupOf[message.from] == groupOf[message.to] else {
            statistics.cut += 1
            return
        }
        merge(message.bytes, into: message.to)
    }

    /// One anti-entropy pass over `group`: each replica sends every other what it lacks (what the
    /// other's version vector does not cover and it has not seen out of order).
    /// - Returns: the number of change sets sent.
    private func repairRound(_ group: [Int]) -> Int {
        var sent = 0
        for sender in group {
            for receiver in group where receiver != sender {
                let changes = replicas[sender].changes(since: replicas[receiver].versionVector)
                guard !changes.isEmpty && !replicas[receiver].hasSeen(changes) else { continue }
                let bytes = changes.encoded()
                count(bytes)
                statistics.repairs += 1
                merge(bytes, into: receiver)
                sent += 1
            }
        }
        return sent
    }

    /// Decodes `bytes` and merges them into replica `receiver`, recording an error when that fails.
    private func merge(_ bytes: [UInt8], into receiver: Int) {
        do {
            try replicas[receiver].merge(ChangeSet(decoding: bytes))
        } catch {
            errors.append("\(names[receiver]) could not merge a change set of \(bytes.count) bytes: \(error)")
        }
    }

    /// Counts one change set of `bytes` as sent.
    private func count(_ bytes: [UInt8]) {
        traffic.changeSets += 1
        traffic.bytes += bytes.count
    }

    /// True with probability `rate`.
    private func chance(_ rate: Double) -> Bool {
        rate > 0 && Double.random(in: 0..<1, using: &generator) < rate
    }
}

/// The message faults of a simulated network.
struct Faults: Hashable, Sendable {
    /// The probability that a message is lost (anti-entropy repairs the loss when settling).
    var dropRate = 0.0
    /// The probability that a message is delivered twice.
    var duplicateRate = 0.0
}
