import Foundation
import ListSync
import TestSupport
import Testing

/// Randomized convergence: many replicas, random operations, random delivery order, duplicates and
/// partitions. 16 plain seeds and 4 with placeholders of 500 operations each in `swift test`; 4,000
/// and 1,000 of 2,000 operations in the long run (``RunSize``). `LISTSYNC_SEEDS=N` runs N plain seeds and
/// N/4 with placeholders, `LISTSYNC_OPERATIONS=N` sets the operations per seed; `LISTSYNC_SEED=S`
/// replays one (with `LISTSYNC_PLACEHOLDERS=1` for a placeholder seed). Each seed is announced on
/// standard error before it runs, with the command that replays it.
struct ConvergenceTests {
    static let environment = ProcessInfo.processInfo.environment
    static let seedCount = RunSize.count("LISTSYNC_SEEDS", quick: 16, long: 4_000)
    static let operationCount = RunSize.count("LISTSYNC_OPERATIONS", quick: 500, long: 2_000)

    /// Runs one seed with 3 to 8 replicas, with placeholder operations when `placeholders` is true.
    static func run(seed: UInt64, operations: Int = operationCount, placeholders: Bool = false) throws {
        let replay =
            "LISTSYNC_SEED=\(seed)\(placeholders ? " LISTSYNC_PLACEHOLDERS=1" : "")"
            + " LISTSYNC_OPERATIONS=\(operations) swift test --filter replaySeed"
        announceSeed(seed, of: placeholders ? "convergence with placeholders" : "convergence", replay: replay)
        let simulation = Simulation(seed: seed, replicaCount: 3 + Int(seed % 6), placeholders: placeholders)
        do {
            try simulation.run(operations: operations)
        } catch {
            Issue.record("\(error) (replay: \(replay))")
        }
    }

    @Test(arguments: 0..<2)
    func randomizedConvergence(half: Int) throws {
        // Two halves so the two cores of a CI machine share the work.
        for seed in stride(from: half, to: Self.seedCount, by: 2) { try Self.run(seed: UInt64(seed)) }
    }

    /// The same schedule with placeholders inserted, committed and withdrawn at random: invariants hold
    /// and no replica ever shows a placeholder it did not make.
    @Test(arguments: 0..<2)
    func randomizedConvergenceWithPlaceholders(half: Int) throws {
        for seed in stride(from: half, to: Self.seedCount / 4, by: 2) {
            try Self.run(seed: UInt64(1_000_000 + seed), placeholders: true)
        }
    }

    @Test func placeholdersAreExercised() throws {
        let simulation = Simulation(seed: 7, replicaCount: 4, placeholders: true)
        try simulation.run(operations: 400)
        let counts = simulation.placeholderCounts
        #expect(counts.inserted > 0 && counts.committed > 0 && counts.withdrawn > 0)
        #expect(counts.inserted == counts.committed + counts.withdrawn)
    }

    /// Replays `LISTSYNC_SEED` (default 4,242), with placeholders when `LISTSYNC_PLACEHOLDERS=1`.
    @Test func replaySeed() throws {
        let seed = Self.environment["LISTSYNC_SEED"].flatMap { UInt64($0) } ?? 4_242
        try Self.run(seed: seed, placeholders: Self.environment["LISTSYNC_PLACEHOLDERS"] == "1")
    }

    @Test func convergenceCountsOperations() throws {
        let simulation = Simulation(seed: 99, replicaCount: 4)
        try simulation.run(operations: 300)
        #expect(simulation.operations == 300)
        #expect(simulation.deliveries > 0)
        #expect(!simulation.inserted.isEmpty && !simulation.deleted.isEmpty)
    }
}
