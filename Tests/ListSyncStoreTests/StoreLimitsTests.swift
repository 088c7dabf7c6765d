import Foundation
import ListSync
import Testing

@testable import ListSyncStore

/// Issue 19, item 1 (store part): numbers read back from the files (counter reservations, segment
/// numbers) outside their valid range are damage with the file and offset, never an overflow trap.
struct StoreLimitsTests {
    /// A closed replica with a few rows and a snapshot; returns its path.
    static func replica(in directory: TemporaryDirectory) throws -> String {
        let path = directory.file("replica")
        let store = try DurableReplica<String>(directory: path)
        try store.update { $0.append(contentsOf: ["Ada", "Grace"]) }
        try store.compact()
        try store.close()
        return path
    }

    static func expectCorrupt(_ path: String, file: String, offset: Int? = nil) {
        #expect {
            try DurableReplica<String>(directory: path)
        } throws: { error in
            guard case .corrupt(let damaged, let at, _) = error as? StoreError else { return false }
            return damaged == path + "/" + file && (offset == nil || offset == at)
        }
    }

    @Test(arguments: [UInt64.max, Dot.maximumCounter + 1, 0])
    func reservationOutOfRangeIsDamage(counter: UInt64) throws {
        let directory = try TemporaryDirectory()
        let path = try Self.replica(in: directory)
        let segment = try #require(try directory.segments(in: "replica").last)
        let handle = try #require(FileHandle(forWritingAtPath: path + "/" + segment))
        let offset = try Int(handle.seekToEnd())
        try handle.write(contentsOf: LogRecord.reservation(counter).encoded())
        try handle.close()
        Self.expectCorrupt(path, file: segment, offset: offset)
    }

    /// Damage between change records of one segment cuts the log there: salvage keeps the change records
    /// before it and none after, also where the log was decoded ahead, a whole segment at once, while the
    /// snapshot loaded.
    @Test func damageBetweenChangeRecordsKeepsOnlyTheEarlierOnes() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.replica(in: directory)
        let store = try DurableReplica<String>(directory: path)
        try store.update { $0.append("Edsger") }
        try store.close()
        let segment = try #require(try directory.segments(in: "replica").last)
        let other = ReplicatedList<String>()
        other.append("Barbara")
        let handle = try #require(FileHandle(forWritingAtPath: path + "/" + segment))
        let offset = try Int(handle.seekToEnd())
        try handle.write(contentsOf: LogRecord.reservation(0).encoded())
        try handle.write(contentsOf: LogRecord.mergedChanges(other.changes(since: VersionVector()).encoded()).encoded())
        try handle.close()
        Self.expectCorrupt(path, file: segment, offset: offset)
        let salvaged = try DurableReplica<String>(directory: path, options: StoreOptions(recovery: .salvage))
        #expect(salvaged.read { $0.map(\.value) } == ["Ada", "Grace", "Edsger"])
        #expect(salvaged.recoveryReport.salvaged.count == 1)
        try salvaged.close()
    }

    @Test func snapshotReservationOutOfRangeIsDamage() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.replica(in: directory)
        let snapshotPath = path + "/snapshot"
        var contents = try SnapshotFile.decode(
            Array(try Data(contentsOf: URL(fileURLWithPath: snapshotPath))), path: "")
        contents.reservedThrough = .max
        try Data(SnapshotFile.encode(contents)).write(to: URL(fileURLWithPath: snapshotPath))
        Self.expectCorrupt(path, file: "snapshot", offset: 24)
    }

    @Test func segmentNumberOutOfRangeIsDamage() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.replica(in: directory)
        let name = LogSegment.fileName(.max)
        let store = try DurableReplica<String>(directory: path)
        let replica = store.replicaID
        try store.close()
        try Data(LogSegment.header(replica: replica, number: .max)).write(to: URL(fileURLWithPath: path + "/" + name))
        Self.expectCorrupt(path, file: name)
    }

    @Test func reservationNeverPassesTheLimit() {
        #expect(StoreLimits.reservation(after: 10, block: 5) == 15)
        #expect(
            StoreLimits.reservation(after: Dot.maximumCounter - 1, block: 4096) == Dot.maximumCounter)
        #expect(StoreLimits.reservation(after: 1, block: .max) == Dot.maximumCounter)
    }
}
