import ListSync

/// Encoded change sets between replicas over an unreliable network, for randomized suites that drive
/// their own edits: messages are duplicated, reordered and lost, and a partition cuts the replicas
/// into two groups until it heals. Every delivery checks the receiver's invariants.
public struct LossyExchange<Element: Codable & Sendable> {
    private struct Message {
        let to: Int
        let bytes: [UInt8]
    }

    /// The replicas, by index.
    public let replicas: [ReplicatedList<Element>]
    private var inFlight: [Message] = []
    private var partition: Set<Int>?

    /// An exchange between `replicas`, all linked.
    public init(_ replicas: [ReplicatedList<Element>]) {
        self.replicas = replicas
    }

    /// Starts a partition with odds 1 in `startOdds` when there is none (each replica in one group or
    /// the other at random), else heals it with odds 1 in `healOdds`.
    public mutating func changePartition(startOdds: Int, healOdds: Int, using random: inout SplitMix64) {
        if partition == nil && Self.below(startOdds, &random) == 0 {
            partition = Set((0..<replicas.count).filter { _ in Self.below(2, &random) == 0 })
        } else if partition != nil && Self.below(healOdds, &random) == 0 {
            partition = nil
        }
    }

    /// Sends what a random other replica lacks from replica `index` unless the partition separates them
    /// (duplicated with odds 1 in 5), then delivers one message in flight at random (lost with odds 1
    /// in 20).
    public mutating func exchange(from index: Int, using random: inout SplitMix64) throws {
        let to = Self.below(replicas.count, &random)
        if to != index && partition.map({ $0.contains(index) == $0.contains(to) }) ?? true {
            let bytes = replicas[index].changes(since: replicas[to].versionVector).encoded()
            inFlight.append(Message(to: to, bytes: bytes))
            if Self.below(5, &random) == 0 { inFlight.append(Message(to: to, bytes: bytes)) }  // duplicated
        }
        if !inFlight.isEmpty {
            let message = inFlight.remove(at: Self.below(inFlight.count, &random))  // reordered
            if Self.below(20, &random) != 0 { try deliver(message) }  // else lost
        }
    }

    /// Heals the partition, delivers what is in flight, and syncs every pair until nothing is missing.
    public mutating func settle() throws {
        partition = nil
        for message in inFlight { try deliver(message) }
        inFlight = []
        for _ in 0..<2 {
            for a in replicas {
                for b in replicas where a !== b {
                    try b.merge(ChangeSet(decoding: a.changes(since: b.versionVector).encoded()))
                }
            }
        }
    }

    private func deliver(_ message: Message) throws {
        let target = replicas[message.to]
        try target.merge(ChangeSet(decoding: message.bytes))
        target._checkInvariants()
    }

    private static func below(_ bound: Int, _ random: inout SplitMix64) -> Int { Int(random.next() % UInt64(bound)) }
}
