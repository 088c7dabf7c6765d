import Foundation
import ListSync
import ListSyncStore
import Testing

/// Damaged and future-format files: typed errors naming the file, and salvage where it can help.
struct SnapshotDamageTests {
    /// A compacted replica: 10 rows in the snapshot, then 3 more change records in the log.
    struct CompactedReplica {
        let directory: TemporaryDirectory
        var path: String { directory.file("replica") }
        var snapshotPath: String { path + "/snapshot" }
        let afterSnapshot: [ChangeSet]

        init() throws {
            directory = try TemporaryDirectory()
            let store = try DurableReplica<String>(directory: directory.file("replica"))
            for index in 0..<10 { try store.update { $0.append("row \(index)") } }
            try store.compact()
            afterSnapshot = try (0..<3).map { index in try store.update { $0.insert("late \(index)", at: 0) }.changes }
            try store.close()
        }

        /// Applies `edit` to the bytes of file `name` of the replica.
        func edit(_ name: String, _ edit: (inout [UInt8]) -> Void) throws {
            let url = URL(fileURLWithPath: path + "/" + name)
            var bytes = try [UInt8](Data(contentsOf: url))
            edit(&bytes)
            try Data(bytes).write(to: url)
        }
    }

    /// Offsets to flip a bit at: in the header (replica ID, header CRC) and in the payload (negative:
    /// from the end of the file).
    @Test(arguments: [10, 45, 60, -8])
    func bitFlipInTheSnapshotIsATypedError(offset: Int) throws {
        let replica = try CompactedReplica()
        try replica.edit("snapshot") { bytes in bytes[offset >= 0 ? offset : bytes.count + offset] ^= 0x01 }
        #expect {
            try DurableReplica<String>(directory: replica.path)
        } throws: { error in
            guard case .corrupt(let file, _, _) = error as? StoreError else { return false }
            return file == replica.snapshotPath
        }
        let salvaged = try DurableReplica<String>(directory: replica.path, options: StoreOptions(recovery: .salvage))
        let expected = ReplicatedList<String>()
        for changes in replica.afterSnapshot { try expected.merge(changes) }
        #expect(salvaged.read { fullState($0) } == fullState(expected))
        #expect(salvaged.recoveryReport.salvaged.map(\.movedTo) == [replica.snapshotPath + ".damaged-1"])
        #expect(FileManager.default.fileExists(atPath: replica.snapshotPath + ".damaged-1"))
        try salvaged.close()
        let reopened = try DurableReplica<String>(directory: replica.path)
        #expect(reopened.recoveryReport.isClean && reopened.read { $0.count } == 3)
        try reopened.close()
    }

    /// A snapshot cut short: inside its header (the error at the cut), or inside its payload (the error
    /// where the payload starts, whose length the header gives).
    @Test(arguments: [(20, 20), (47, 47), (48, 48), (60, 48)])
    func truncatedSnapshotIsATypedError(length: Int, offset: Int) throws {
        let replica = try CompactedReplica()
        try replica.edit("snapshot") { bytes in bytes.removeSubrange(length...) }
        #expect {
            try DurableReplica<String>(directory: replica.path)
        } throws: { error in
            guard case .corrupt(let file, let at, _) = error as? StoreError else { return false }
            return file == replica.snapshotPath && at == offset
        }
    }

    /// `log` stands for the replica's log segment.
    @Test(arguments: ["snapshot", "replica", "log"])
    func unknownFormatVersionIsReportedWithThePath(name: String) throws {
        let replica = try CompactedReplica()
        let file = name == "log" ? try replica.directory.segments(in: "replica").last! : name
        try replica.edit(file) { $0[4] = 9 }
        for recovery in [RecoveryMode.strict, .salvage] {
            #expect(throws: StoreError.unsupportedFormatVersion(path: replica.path + "/" + file, version: 9)) {
                try DurableReplica<String>(directory: replica.path, options: StoreOptions(recovery: recovery))
            }
        }
    }

    @Test func snapshotOfAnotherReplicaIsRejected() throws {
        let replica = try CompactedReplica()
        let other = try CompactedReplica()
        try FileManager.default.removeItem(atPath: replica.snapshotPath)
        try FileManager.default.copyItem(atPath: other.snapshotPath, toPath: replica.snapshotPath)
        #expect {
            try DurableReplica<String>(directory: replica.path)
        } throws: { error in
            guard case .replicaMismatch(let file, _, _) = error as? StoreError else { return false }
            return file == replica.snapshotPath
        }
    }
}
