import Foundation
import ListSync
import Testing

@testable import ListSyncStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Issue 19, item 6: a change that could not be logged (a full disk, an I/O error) is not applied, the
/// error is typed, and the store keeps working once the disk has room. Faults are injected in the file
/// layer (``FileFaults``); one test fills a real 1 MiB tmpfs.
struct FullDiskTests {
    /// The replica's state as a reopen would see it: `path` copied aside and opened there.
    static func reopenedState(of path: String, in directory: TemporaryDirectory) throws -> ChangeSet {
        let name = "copy-\(UUID().uuidString)"
        try directory.copyReplica(String(path.dropFirst(directory.path.count + 1)), to: name)
        let copy = try DurableReplica<String>(directory: directory.file(name))
        defer { try? copy.close() }
        return copy.read { fullState($0) }
    }

    /// A store whose file layer fails as `faults` says.
    static func store(in directory: TemporaryDirectory, faults: FileFaults, policy: CommitPolicy = .always) throws
        -> DurableReplica<String>
    {
        var options = StoreOptions(commitPolicy: policy)
        options.faults = faults
        let store = try DurableReplica<String>(directory: directory.file("replica"), options: options)
        try store.update { $0.append(contentsOf: ["Ada", "Grace", "Edsger"]) }
        return store
    }

    @Test(arguments: [(ENOSPC, "write"), (EIO, "write"), (EIO, "fsync"), (ENOSPC, "fsync")])
    func localEditThatCouldNotBeLoggedIsNotApplied(errno code: Int32, function: String) throws {
        let directory = try TemporaryDirectory()
        let faults = FileFaults()
        let store = try Self.store(in: directory, faults: faults)
        let before = store.read { fullState($0) }
        let ticket = store.durableTicket
        faults.fail(function, errno: code, times: 1)
        #expect {
            try store.update { $0.insert("Barbara", at: 1) }
        } throws: { error in
            switch error as? StoreError {
            case .noSpace(let cause): code == ENOSPC && cause.function == function
            case .ioError(let cause): code == EIO && cause.function == function
            default: false
            }
        }
        #expect(store.read { fullState($0) } == before, "the failed edit is visible")
        #expect(store.read { $0.map(\.value) } == ["Ada", "Grace", "Edsger"])
        #expect(store.durableTicket == ticket)
        #expect(try Self.reopenedState(of: directory.file("replica"), in: directory) == before)
        let commit = try store.update { $0.insert("Barbara", at: 1) }
        #expect(commit.change.inserted == [1] && store.durableTicket >= commit.ticket)
        let after = store.read { fullState($0) }
        try store.close()
        let reopened = try DurableReplica<String>(directory: directory.file("replica"))
        #expect(reopened.recoveryReport.isClean && reopened.read { fullState($0) } == after)
        try reopened.close()
    }

    /// The rows an app shows are the rows before a change that failed: placeholders pending then are put
    /// back where they were, with their IDs, so their loads can still commit them (before, the rebuilt
    /// list had lost them, and an app's copy of the rows no longer matched).
    @Test(arguments: ["update", "merge"])
    func placeholdersPendingBeforeAFailedChangeAreKept(failing: String) throws {
        let directory = try TemporaryDirectory()
        let faults = FileFaults()
        let store = try Self.store(in: directory, faults: faults)
        let peer = try ReplicatedList<String>(snapshot: store.read { $0.snapshot() })
        peer.append("from the peer")
        var ids: [PlaceholderID] = []
        try store.update { list in ids = list.insertPlaceholders(showing: ["Loading 1", "Loading 2"], at: 1).ids }
        try store.update { list in _ = list.insertPlaceholders(showing: ["Loading 3"], at: 4) }
        let before = store.read { Array($0) }
        faults.fail("write", errno: ENOSPC, times: 1)
        #expect(throws: StoreError.self) {
            if failing == "update" {
                try store.update { list in
                    _ = try? list.commitPlaceholder(ids[0], value: "Katherine")
                    list.insert("Barbara", at: 0)
                    _ = list.insertPlaceholders(showing: ["Loading 4"], at: 0)
                }
            } else {
                try store.merge(peer.changes(since: store.read { $0.versionVector }))
            }
        }
        #expect(store.read { Array($0) } == before, "the rows are as they were, placeholders included")
        var row: RowID?
        try store.update { list in row = try? list.commitPlaceholder(ids[0], value: "Katherine").row }
        store.read { $0._checkInvariants() }
        #expect(row.flatMap { row in store.read { $0.index(forRow: row) } } == 1, "the load commits where it was")
    }

    /// The undo history is the one before a change that failed: an undo that could not be logged can be
    /// tried again, and the edits before it can still be undone (before, the rebuilt list had no history).
    @Test(arguments: ["edit", "undo", "merge"])
    func theUndoHistoryBeforeAFailedChangeIsKept(failing: String) throws {
        let directory = try TemporaryDirectory()
        let faults = FileFaults()
        let store = try Self.store(in: directory, faults: faults)
        let peer = try ReplicatedList<String>(snapshot: store.read { $0.snapshot() })
        peer.append("from the peer")
        try store.update { list in list.enableUndo() }
        try store.update { list in list.move(from: 0, to: 2) }
        try store.update { list in list.remove(at: 0) }
        faults.fail("write", errno: ENOSPC, times: 1)
        #expect(throws: StoreError.self) {
            switch failing {
            case "edit": try store.update { list in list.append("Barbara") }
            case "undo": try store.update { list in list.undo() }
            default: try store.merge(peer.changes(since: store.read { $0.versionVector }))
            }
        }
        #expect(store.read { $0.map(\.value) } == ["Edsger", "Ada"])
        try store.update { list in list.undo() }
        try store.update { list in list.undo() }
        #expect(store.read { $0.map(\.value) } == ["Ada", "Grace", "Edsger"])
        #expect(!store.read { $0.canUndo } && store.read { $0.canRedo })
    }

    @Test func mergeThatCouldNotBeLoggedIsNotApplied() throws {
        let directory = try TemporaryDirectory()
        let faults = FileFaults()
        let store = try Self.store(in: directory, faults: faults)
        let peer = try ReplicatedList<String>(snapshot: store.read { $0.snapshot() })
        peer.append("from the peer")
        let changes = peer.changes(since: store.read { $0.versionVector })
        let before = store.read { fullState($0) }
        faults.fail("write", errno: ENOSPC, times: 1)
        #expect {
            try store.merge(changes)
        } throws: { error in
            guard case .noSpace = error as? StoreError else { return false }
            return true
        }
        #expect(store.read { fullState($0) } == before && !store.read { $0.hasSeen(changes) })
        try store.merge(changes)
        #expect(store.read { $0.last?.value } == "from the peer")
        try store.close()
    }

    /// When even cutting the half-written record fails, the store says so and stops; memory still
    /// holds only what the files hold.
    @Test func failedRollbackStopsTheStore() throws {
        let directory = try TemporaryDirectory()
        let faults = FileFaults()
        let store = try Self.store(in: directory, faults: faults)
        faults.fail("write", errno: EIO, times: 1)
        faults.fail("ftruncate", errno: EIO, times: 1)
        #expect {
            try store.update { $0.append("Barbara") }
        } throws: { error in
            guard case .uncertain(let cause) = error as? StoreError else { return false }
            return cause.errno == EIO
        }
        #expect {
            try store.update { $0.append("Alan") }
        } throws: { error in
            guard case .failedEarlier = error as? StoreError else { return false }
            return true
        }
        let memory = store.read { fullState($0) }
        #expect(try Self.reopenedState(of: directory.file("replica"), in: directory) == memory)
        #expect(store.read { $0.map(\.value) } == ["Ada", "Grace", "Edsger"])
    }

    /// A compaction that runs out of space leaves a directory that opens to the same state, and the
    /// store goes on.
    @Test func compactionWithoutSpaceKeepsTheStoreWorking() throws {
        let directory = try TemporaryDirectory()
        let faults = FileFaults()
        let store = try Self.store(in: directory, faults: faults)
        faults.fail("write", errno: ENOSPC, times: 1, pathSuffix: "snapshot.tmp")
        #expect {
            try store.compact()
        } throws: { error in
            guard case .noSpace = error as? StoreError else { return false }
            return true
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file("replica/snapshot.tmp")))
        try store.update { $0.append("Barbara") }
        try store.compact()
        let state = store.read { fullState($0) }
        try store.close()
        let reopened = try DurableReplica<String>(directory: directory.file("replica"))
        #expect(reopened.read { fullState($0) } == state && reopened.recoveryReport.snapshotLoaded)
        try reopened.close()
    }

    /// The real thing: a 1 MiB tmpfs, filled up. Needs the permission to mount (root, as in CI).
    @Test func fullTmpfsRefusesTheEditAndRecoversWhenThereIsRoomAgain() throws {
        #if os(Linux)
            let directory = try TemporaryDirectory()
            let mountPoint = directory.file("tmpfs")
            try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: false)
            guard mount("tmpfs", mountPoint, "tmpfs", 0, "size=1m") == 0 else {
                print("FullDiskTests: skipping the tmpfs test: mount failed: \(String(cString: strerror(errno)))")
                return
            }
            defer { umount(mountPoint) }
            let path = mountPoint + "/replica"
            let store = try DurableReplica<String>(directory: path)
            try store.update { $0.append(contentsOf: (0..<20).map { "row \($0)" }) }
            // Fill what is left, so the next record cannot be written.
            let filler = mountPoint + "/filler"
            #expect(FileManager.default.createFile(atPath: filler, contents: nil))
            let handle = try #require(FileHandle(forWritingAtPath: filler))
            let block = Data(count: 4096)
            while (try? handle.write(contentsOf: block)) != nil {}
            try handle.close()
            let before = store.read { fullState($0) }
            var refused: StoreError?
            for index in 0..<200 where refused == nil {
                do {
                    try store.update { $0.append(String(repeating: "x", count: 512) + "\(index)") }
                } catch {
                    refused = error
                }
            }
            guard case .noSpace(let cause) = try #require(refused) else {
                Issue.record("expected noSpace, got \(String(describing: refused))")
                return
            }
            #expect(cause.errno == ENOSPC && cause.path.hasPrefix(path))
            #expect("\(refused!)".contains("no space left"))
            let memory = store.read { fullState($0) }
            #expect(memory.rowCount >= before.rowCount)
            #expect(try Self.reopenedState(of: path, in: directory) == memory, "memory differs from the files")
            try FileManager.default.removeItem(atPath: filler)
            try store.update { $0.append("after the disk has room") }
            let after = store.read { fullState($0) }
            try store.close()
            let reopened = try DurableReplica<String>(directory: path)
            #expect(reopened.read { fullState($0) } == after)
            #expect(reopened.read { $0.last?.value } == "after the disk has room")
            try reopened.close()
        #else
            print("FullDiskTests: skipping the tmpfs test: tmpfs mounts are Linux only")
        #endif
    }
}
