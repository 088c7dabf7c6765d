import ListSync

/// What joins a cluster's replicas: `--transport memory|tcp`.
enum Transport: String, CaseIterable, Sendable {
    /// ``MemoryCluster``: replicas in this process, messages in seeded random order, faults possible.
    case memory
    /// ``LoopbackCluster``: real TCP peers on 127.0.0.1.
    case tcp

    /// The value of `--transport` in `arguments`, or `defaultValue` when absent.
    /// - Throws: ``UsageError`` naming the transports when the value is neither.
    static func parse(_ arguments: ParsedArguments, default defaultValue: Transport) throws(UsageError) -> Transport {
        guard let text = arguments.string("transport") else { return defaultValue }
        guard let transport = Transport(rawValue: text) else {
            throw arguments.error("option '--transport' expects memory or tcp, got \(text.quoted)")
        }
        return transport
    }

    /// A cluster of replicas `names` with IDs `replicaIDs` on this transport; `seed` and `faults` apply
    /// to the memory transport only.
    /// - Throws: ``CommandFailure`` when the TCP peers cannot listen on 127.0.0.1.
    func makeCluster(
        names: [String], replicaIDs: [ReplicaID], seed: UInt64, faults: Faults = Faults()
    ) throws(CommandFailure) -> any Cluster {
        switch self {
        case .memory:
            return MemoryCluster(names: names, replicaIDs: replicaIDs, seed: seed, faults: faults)
        case .tcp:
            do {
                return try LoopbackCluster(names: names, replicaIDs: replicaIDs)
            } catch {
                throw CommandFailure("could not start the peers on 127.0.0.1: \(error); try --transport memory")
            }
        }
    }
}
