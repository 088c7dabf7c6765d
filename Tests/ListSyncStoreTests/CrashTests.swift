import Foundation
import ListSync
import ListSyncStore
import TestSupport
import Testing

/// Real processes edit a replica and are killed with SIGKILL at random moments; every reopen must hold
/// exactly what the worker saw acknowledged (see ``CrashOracle``). 12 kills per test in `swift test`, 400
/// in the long run (``RunSize``); `LISTSYNC_KILLS=N` sets the number of kills per test.
struct CrashTests {
    static let kills = RunSize.count("LISTSYNC_KILLS", quick: 12, long: 400)

    /// Worker settings: commit policy and automatic compaction threshold in bytes (0 for none).
    static let workloads: [(policy: String, compaction: Int, seed: UInt64)] = [
        ("always", 0, 0x5eed_0001),
        ("batched", 0, 0x5eed_0002),
        ("always", 600, 0x5eed_0003),
    ]

    @Test(arguments: workloads)
    func killedWorkerLosesNothingAcknowledged(policy: String, compaction: Int, seed: UInt64) throws {
        let directory = try TemporaryDirectory()
        let replica = directory.file("replica")
        var oracle = CrashOracle()
        var rng = SplitMix64(seed: seed)
        var totalOperations = 0
        for kill in 0..<Self.kills {
            let runSeed = seed &+ UInt64(kill)
            let worker = try WorkerProcess(
                arguments: [replica, "\(runSeed)", policy, "\(compaction)"], output: directory.file("run\(kill)"))
            try worker.waitUntilReady()
            usleep(UInt32.random(in: 0...50_000, using: &rng))
            worker.kill()
            let report = try CrashOracle.Report(lines: worker.lines())
            totalOperations += report.operations.count
            let reopened = try DurableReplica<String>(directory: replica)
            let problem = try oracle.check(reopened, against: report)
            try reopened.close()
            #expect(problem == nil, "seed \(seed), kill \(kill) (run seed \(runSeed)): \(problem ?? "")")
            if problem != nil { return }
        }
        #expect(totalOperations > Self.kills, "the workers were killed before doing anything")
        if compaction > 0 { #expect(FileManager.default.fileExists(atPath: replica + "/snapshot"), "never compacted") }
    }

    @Test func secondProcessGetsTheLockError() throws {
        let directory = try TemporaryDirectory()
        let replica = directory.file("replica")
        let holder = try WorkerProcess(
            arguments: [replica, "1", "always", "0", "hold"], output: directory.file("holder"))
        try holder.waitUntilReady()
        #expect(throws: StoreError.locked(path: replica)) { try DurableReplica<String>(directory: replica) }
        holder.kill()
        let reopened = try DurableReplica<String>(directory: replica)
        #expect(reopened.recoveryReport.isClean)
        try reopened.close()
    }

    /// Issue 19, item 5: with `LOCK` deleted while a process holds the replica, a second process (and a
    /// second open in this one) still finds the replica in use, and the holder's state is untouched.
    @Test func deletedLockFileStillKeepsASecondProcessOut() throws {
        let directory = try TemporaryDirectory()
        let replica = directory.file("replica")
        let holder = try WorkerProcess(
            arguments: [replica, "1", "always", "0", "hold"], output: directory.file("holder"))
        try holder.waitUntilReady()
        try FileManager.default.removeItem(atPath: replica + "/LOCK")
        let second = try WorkerProcess(arguments: [replica, "2", "always", "0"], output: directory.file("second"))
        let status = second.waitForExit(timeout: 10)
        #expect(status == 1, "the second worker was not refused: \(second.errors())")
        #expect(second.errors().contains("is in use by another process"), "\(second.errors())")
        #expect(throws: StoreError.locked(path: replica)) { try DurableReplica<String>(directory: replica) }
        holder.kill()
        let reopened = try DurableReplica<String>(directory: replica)
        #expect(reopened.recoveryReport.isClean && reopened.read { $0.isEmpty })
        try reopened.close()
    }
}
