import ListSync
import ListSyncNetwork
import ListSyncUI
import Synchronization
import TestSupport
import Testing

/// Randomized: a table fed only by a ``TableModel``'s updates (applied as UIKit applies them) shows the
/// list's rows after every step, while the table reorders, deletes and drops, placeholders commit and
/// are withdrawn, and other replicas' edits are merged meanwhile.
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
        #expect(!table.updates.isEmpty)
    }
}
