import Foundation
import ListSync
import ListSyncStore
import Testing

/// A store never calls a value it cannot decode damage, and never loses it: it logs and keeps the row,
/// and a store opened with a type that reads the value shows it.
struct UndecodableValueStoreTests {
    @Test func valuesOfAnotherTypeAreLoggedKeptAndShownLater() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("replica")
        let strings = ReplicatedList<String>()
        strings.append(contentsOf: ["a", "b"])
        let store = try DurableReplica<Int>(directory: path)
        try store.merge(strings.changes(since: VersionVector()))
        try store.update { $0.append(7) }
        #expect(store.read { $0.map(\.value) } == [7] && store.read { $0.undecodableRows.count } == 2)
        try store.close()

        let again = try DurableReplica<Int>(directory: path)
        #expect(again.recoveryReport.isClean && again.read { $0.undecodableRows.count } == 2)
        try again.compact()
        try again.close()

        let readable = try DurableReplica<String>(directory: path)
        #expect(readable.recoveryReport.isClean)
        #expect(readable.read { $0.map(\.value) } == ["a", "b"] && readable.read { $0.undecodableRows.count } == 1)
        try readable.close()
    }
}
