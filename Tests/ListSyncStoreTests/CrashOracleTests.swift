import ListSync
import ListSyncStore
import Testing

/// The crash oracle on hand-made kills, including the moments a random kill rarely hits.
struct CrashOracleTests {
    /// A peer with `edits` local operations, and the change set of all of them.
    static func peerChanges(edits: Int) -> ChangeSet {
        let peer = ReplicatedList<String>(replicaID: ReplicaID(rawValue: 99))
        for index in 0..<edits { peer.insert("peer \(index)", at: index) }
        return peer.changes(since: VersionVector())
    }

    /// Output lines for a worker that began merging `changes` and was killed before reporting it.
    static func linesKilledDuringMerge(of changes: ChangeSet) -> [String] {
        ["ready 1", "begin 0 " + changes.encoded().map { String(format: "%02x", $0) }.joined()]
    }

    /// A merge larger than any local step, durable before the kill but not yet reported, is accepted.
    @Test func unreportedMergeOfManyOperationsIsExplained() throws {
        let directory = try TemporaryDirectory()
        let store = try DurableReplica<String>(directory: directory.file("replica"))
        let changes = Self.peerChanges(edits: Int(CrashOracle.operationsPerStep) + 4)
        try store.merge(changes)
        var oracle = CrashOracle()
        let problem = try oracle.check(
            store, against: CrashOracle.Report(lines: Self.linesKilledDuringMerge(of: changes)))
        try store.close()
        #expect(problem == nil)
    }

    /// A state holding more than the begun merge is still reported as a problem.
    @Test func stateBeyondTheBegunMergeIsAProblem() throws {
        let directory = try TemporaryDirectory()
        let store = try DurableReplica<String>(directory: directory.file("replica"))
        let changes = Self.peerChanges(edits: 3)
        try store.merge(changes)
        try store.update { list in list.insert("not reported", at: 0) }
        var oracle = CrashOracle()
        let problem = try oracle.check(
            store, against: CrashOracle.Report(lines: Self.linesKilledDuringMerge(of: changes)))
        try store.close()
        #expect(problem?.hasPrefix("state differs from the reported operations") == true)
    }
}
