import ListSync

/// One run of `syncdemo simulate`: random edits on random replicas with messages delivered in
/// between, partitions per the schedule, then heal, settle and audit.
struct Simulation {
    /// The number of replicas.
    var replicas: Int
    /// The number of random edits.
    var operations: Int
    /// Seeds the replica IDs, the edits, and (in memory) the delivery order and faults.
    var seed: UInt64
    /// Message faults (memory transport only).
    var faults: Faults
    /// When the replicas are partitioned, sorted and not overlapping.
    var partitions: [PartitionWindow]
    /// What joins the replicas.
    var transport: Transport

    /// How long settling may take before the replicas count as not converged.
    static let settleTimeout = Duration.seconds(60)

    /// Runs the simulation and reports; `progress` is called after each operation with the number done.
    /// - Throws: ``CommandFailure`` when the cluster cannot start or an edit does not fit its list.
    func run(progress: (Int) -> Void) throws(CommandFailure) -> SimulationReport {
        var generator = SplitMix64(seed: seed)
        let names = (0..<replicas).map { "replica \($0)" }
        let replicaIDs = names.map { _ in ReplicaID.random(using: &generator) }
        let cluster = try transport.makeCluster(
            names: names, replicaIDs: replicaIDs, seed: generator.next(), faults: faults)
        defer { cluster.shutDown() }
        var workload = Workload(generator: SplitMix64(seed: generator.next()))
        for operation in 0..<operations {
            if partitions.contains(where: { $0.operations.upperBound == operation }) { cluster.heal() }
            if let window = partitions.first(where: { $0.operations.lowerBound == operation }) {
                cluster.partition(window.groups)
            }
            let replica = Int.random(in: 0..<replicas, using: &generator)
            let outcome = cluster.edit(replica) { list in Result { () throws(CommandError) in try workload.edit(list) }
            }
            if case .failure(let error) = outcome {
                throw CommandFailure("operation \(operation) on \(names[replica]) (seed \(seed)): \(error)")
            }
            cluster.deliverSome()
            progress(operation + 1)
        }
        cluster.heal()
        let clock = ContinuousClock()
        let start = clock.now
        let converged = cluster.settle(timeout: Self.settleTimeout)
        let elapsed = clock.now - start
        let memory = cluster as? MemoryCluster
        return SimulationReport(
            transport: transport.rawValue, replicas: replicas, seed: seed, operations: operations,
            converged: converged, rows: cluster.confirmedRows(0).count, messages: cluster.traffic.changeSets,
            bytes: cluster.traffic.bytes, faults: memory?.statistics,
            convergeMilliseconds: Double(elapsed / .microseconds(1)) / 1000,
            positionKeys: cluster.read(0) { PositionKeyLengths($0) },
            audit: RowAudit(cluster, after: workload), errors: memory?.errors ?? [])
    }
}

/// The lengths of the position keys of a list's confirmed rows.
struct PositionKeyLengths: Hashable, Sendable, Encodable {
    /// The mean length in bytes (0 for an empty list).
    var averageBytes: Double
    /// The longest, in bytes.
    var maximumBytes: Int

    /// The key lengths of `list`'s confirmed rows.
    /// - Complexity: O(n) for n rows.
    init(_ list: ReplicatedList<Entry>) {
        let lengths = list.indices.filter { !list[$0].isPending }.map { list.storedPositionKeyLength(at: $0) }
        averageBytes = lengths.isEmpty ? 0 : Double(lengths.reduce(0, +)) / Double(lengths.count)
        maximumBytes = lengths.max() ?? 0
    }
}
