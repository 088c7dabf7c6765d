import ListSync
import ListSyncNetwork
import ListSyncUI
import Synchronization
import TestSupport
import Testing

/// Randomized: a table fed only by a ``TableModel``'s updates (applied as UIKit applies them) shows the
/// list's rows, while the table reorders, deletes and drops, placeholders commit and are withdrawn, and
/// other replicas' edits are merged meanwhile: in process (checked after every step), and from a peer
/// over loopback TCP whose edits arrive at any moment (every update checked, the rows at checkpoints).
@Suite(.timeLimit(.minutes(5)))
@MainActor
struct TableSyncTests {
    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func theTableShowsTheListAfterEveryStep(seed: UInt64) async throws {
        announceSeed(seed, of: "theTableShowsTheListAfterEveryStep", replay: "swift test --filter TableSyncTests")
        var random = SplitMix64(seed: seed)
        let peer = try TableModelTests.makePeer(1, values: (0..<8).map { "r\($0)" })
        defer { peer.stop() }
        let remote = ReplicatedList<String>(replicaID: ReplicaID(2))
        _ = try remote.merge(peer.read { $0.changes(since: VersionVector()) })
        let (model, table) = TableModelTests.makeTable(peer)
        let driver = TableDriver(model, table)
        for step in 0..<300 {
            let context = "seed \(seed), step \(step)"
            // Changes the table does not show yet: a peer's edits merged in, edits made by other code.
            for edit in 0..<Int.random(in: 0...2, using: &random) {
                let label = "\(step).\(edit)"
                if Bool.random(using: &random) {
                    TableDriver.randomEdit(remote, label: "remote \(label)", using: &random)
                    peer.edit { list in _ = try? list.merge(remote.changes(since: list.versionVector)) }
                    let vector = remote.versionVector
                    _ = try remote.merge(peer.read { $0.changes(since: vector) })
                } else {
                    peer.edit { list in TableDriver.randomEdit(list, label: "other \(label)", using: &random) }
                }
            }
            if Int.random(in: 0..<3, using: &random) == 0 { await Task.yield() }  // the model may take them first
            try await driver.act(label: "table \(step)", using: &random)
            try await TableModelTests.settle(model, table, context)
        }
        await driver.completeAllLoads()
        try await TableModelTests.settle(model, table, "seed \(seed), end")
        #expect(driver.failures == driver.expectedFailures)
        #expect(
            driver.correctedMoves > 0 && driver.commits > 0, "\(driver.correctedMoves) moves, \(driver.commits) commits"
        )
    }

    @Test(arguments: [11, 12, 13] as [UInt64])
    func theTableShowsTheListWhileAPeerEditsOverTCP(seed: UInt64) async throws {
        announceSeed(
            seed, of: "theTableShowsTheListWhileAPeerEditsOverTCP", replay: "swift test --filter TableSyncTests")
        var random = SplitMix64(seed: seed)
        let peer = try TableModelTests.makePeer(1, values: (0..<8).map { "r\($0)" })
        let other = try TableModelTests.makePeer(ReplicatedList<String>(replicaID: ReplicaID(2)))
        defer {
            other.stop()
            peer.stop()
        }
        other.connect(to: try peer.listen(on: Endpoint(host: "127.0.0.1", port: 0)))
        let (model, table) = TableModelTests.makeTable(peer)
        let driver = TableDriver(model, table)
        for step in 0..<240 {
            for edit in 0..<Int.random(in: 0...3, using: &random) {
                other.edit { list in TableDriver.randomEdit(list, label: "remote \(step).\(edit)", using: &random) }
            }
            if Int.random(in: 0..<3, using: &random) == 0 { try await Task.sleep(for: .milliseconds(1)) }
            try await driver.act(label: "table \(step)", using: &random)
            try #require(table.failures.isEmpty, "seed \(seed), step \(step): \(table.failures)")
            if step % 40 == 39 { try await Self.checkpoint(model, table, other, "seed \(seed), step \(step)") }
        }
        await driver.completeAllLoads()
        try await Self.checkpoint(model, table, other, "seed \(seed), end")
        #expect(driver.failures == driver.expectedFailures)
        #expect(
            driver.correctedMoves > 0 && driver.commits > 0, "\(driver.correctedMoves) moves, \(driver.commits) commits"
        )
        print(
            "seed \(seed): \(table.updates.count) updates, \(driver.correctedMoves) corrected moves, \(driver.commits) commits"
        )
    }

    /// Waits until both peers have every edit, then until the table shows the list.
    static func checkpoint(
        _ model: TableModel<ReplicatedList<String>>, _ table: RecordingTable<ReplicatedList<String>>,
        _ other: SyncPeer<ReplicatedList<String>>, _ context: String
    ) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while model.peer.read({ $0.versionVector }) != other.read({ $0.versionVector }) {
            try #require(ContinuousClock.now < deadline, "\(context): the peers did not converge")
            try await Task.sleep(for: .milliseconds(5))
        }
        try await TableModelTests.settle(model, table, context)
        #expect(model.peer.read { $0.filter { !$0.isPending }.map(\.id) } == other.read { $0.map(\.id) })
    }
}
