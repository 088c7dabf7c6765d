import Foundation
import ListSync
import ListSyncStore
import TestSupport
import Testing

/// Opening, updating, merging, reopening, compacting and closing a durable replica in one process.
struct DurableReplicaTests {
    @Test func createsOnFirstUseAndReopensWithTheSameState() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("replica")
        let store = try DurableReplica<String>(directory: path)
        #expect(store.recoveryReport.created && store.recoveryReport.isClean)
        let commit = try store.update { $0.append(contentsOf: ["Paris", "Rome", "Tokyo"]) }
        #expect(commit.change.inserted == [0, 1, 2])
        #expect(store.durableTicket >= commit.ticket)
        try store.update { $0.move(fromOffsets: [2], toOffset: 0) }
        try store.update { $0.remove(at: 1) }
        let peer = ReplicatedList<String>()
        try peer.merge(store.read { $0.changes(since: VersionVector()) })
        peer.updateValue("Roma", at: 1)
        try store.merge(peer.changes(since: store.read { $0.versionVector }))
        let before = store.read { fullState($0) }
        let values = store.read { $0.map(\.value) }
        let replica = store.replicaID
        try store.close()

        let reopened = try DurableReplica<String>(directory: path)
        #expect(!reopened.recoveryReport.created && reopened.recoveryReport.isClean)
        #expect(reopened.replicaID == replica)
        #expect(reopened.read { fullState($0) } == before)
        #expect(reopened.read { $0.map(\.value) } == values && values == ["Tokyo", "Roma"])
        try reopened.close()
    }

    /// A document typed and then mostly backspaced (a change per row) compacts into a snapshot that opens
    /// again: before deleted rows were stored as runs, that snapshot claimed more rows than it had bytes
    /// and every later open failed (`corrupt`, "snapshot does not load").
    @Test func aTypedAndBackspacedDocumentOpensAfterCompaction() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("replica")
        let store = try DurableReplica<String>(directory: path)
        for offset in 0..<3_000 { try store.update { $0.append("c\(offset)") } }
        for _ in 0..<2_900 { try store.update { $0.remove(at: $0.count - 1) } }
        let values = store.read { $0.map(\.value) }
        let state = store.read { fullState($0) }
        try store.compactAndClose()
        let reopened = try DurableReplica<String>(directory: path)
        #expect(reopened.recoveryReport.isClean)
        #expect(reopened.read { $0.map(\.value) } == values && values.count == 100)
        #expect(reopened.read { fullState($0) } == state)
        try reopened.close()
    }

    @Test func restartNeverReusesOperationCounters() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("replica")
        let options = StoreOptions(counterReservationBlock: 8)
        var highest: UInt64 = 0
        for round in 0..<5 {
            let store = try DurableReplica<String>(directory: path, options: options)
            #expect(store.read { $0.nextOperationCounter } > highest, "round \(round)")
            for index in 0..<(round * 7) { try store.update { $0.append("\(round).\(index)") } }
            highest = store.read { $0.nextOperationCounter } - 1
            // No close: the next open must not rely on a clean shutdown.
        }
    }

    @Test func batchedCommitsBecomeDurable() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("replica")
        let store = try DurableReplica<Int>(
            directory: path, options: StoreOptions(commitPolicy: .batched(.milliseconds(5))))
        var last = DurabilityTicket(sequence: 0)
        for value in 0..<50 { last = try store.update { $0.append(value) }.ticket }
        #expect(last.sequence == 50)
        try await store.waitUntilDurable(last)
        #expect(store.durableTicket >= last)
        try store.close()
        await #expect(throws: StoreError.closed) { try await store.waitUntilDurable(DurabilityTicket(sequence: 51)) }
        let reopened = try DurableReplica<Int>(directory: path)
        #expect(reopened.read { $0.map(\.value) } == Array(0..<50))
        try reopened.close()
    }

    @Test func compactionDropsCoveredSegmentsAndKeepsTheState() throws {
        let directory = try TemporaryDirectory()
        let store = try DurableReplica<String>(directory: directory.file("replica"))
        for index in 0..<20 { try store.update { $0.insert("row \(index)", at: 0) } }
        try store.compact()
        try store.update { $0.remove(at: 3) }
        let state = store.read { fullState($0) }
        #expect(try directory.segments(in: "replica").count == 1)
        try store.close()
        let reopened = try DurableReplica<String>(directory: directory.file("replica"))
        #expect(reopened.recoveryReport.snapshotLoaded && reopened.recoveryReport.recordsReplayed == 1)
        #expect(reopened.read { fullState($0) } == state)
        try reopened.close()
    }

    @Test func automaticCompactionKeepsTheLogShort() throws {
        let directory = try TemporaryDirectory()
        let options = StoreOptions(compactionThreshold: 2_000)
        let store = try DurableReplica<String>(directory: directory.file("replica"), options: options)
        for index in 0..<200 { try store.update { $0.append("row \(index)") } }
        let state = store.read { fullState($0) }
        try store.close()
        let size =
            try FileManager.default.attributesOfItem(
                atPath: directory.file("replica/" + directory.segments(in: "replica").last!))[.size] as? Int
        #expect((size ?? .max) < 2_100)
        let reopened = try DurableReplica<String>(directory: directory.file("replica"))
        #expect(reopened.read { fullState($0) } == state)
        try reopened.close()
    }

    /// The log written by earlier opens counts towards the threshold: an app that opens the store for a
    /// few edits at a time still gets it compacted, so opening never replays more than about the threshold.
    @Test func theLogOfManyShortOpensIsCompacted() throws {
        let directory = try TemporaryDirectory()
        let options = StoreOptions(compactionThreshold: 2_000)
        var replayed: [Int] = []
        for open in 0..<20 {
            let store = try DurableReplica<String>(directory: directory.file("replica"), options: options)
            replayed.append(store.recoveryReport.recordsReplayed)
            for index in 0..<10 { try store.update { $0.append("open \(open) row \(index)") } }  // ~700 bytes
            try store.close()
        }
        let reopened = try DurableReplica<String>(directory: directory.file("replica"), options: options)
        #expect(reopened.read { $0.count } == 200)
        replayed.append(reopened.recoveryReport.recordsReplayed)
        try reopened.close()
        // 2,000 bytes hold about 30 one-row records; one open adds 10 to them before it compacts.
        #expect(replayed.allSatisfy { $0 <= 40 }, "records replayed at each open: \(replayed)")
    }

    /// Past the threshold, the log grows to a quarter of the snapshot before compacting: a large list
    /// is not rewritten every few edits.
    @Test func compactionWaitsForAQuarterOfTheSnapshot() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("replica")
        let options = StoreOptions(compactionThreshold: 2_000)
        let store = try DurableReplica<String>(directory: path, options: options)
        try store.update { $0.append(contentsOf: (0..<2_000).map { "row \($0) of a list that is long enough" }) }
        try store.compact()
        let snapshot = try #require(FileManager.default.attributesOfItem(atPath: path + "/snapshot")[.size] as? Int)
        #expect(snapshot > 40_000)
        var edits = 0
        func logBytes() throws -> Int {
            try directory.segments(in: "replica").reduce(0) { total, name in
                try total + (FileManager.default.attributesOfItem(atPath: path + "/" + name)[.size] as? Int ?? 0)
            }
        }
        while try logBytes() < snapshot / 4 - 200, edits < 1_500 {
            try store.update { $0.updateValue("edit \(edits)", at: edits) }
            edits += 1
        }
        #expect(edits > 100 && edits < 1_500, "the log grew past the threshold to a quarter of the snapshot")
        let quarter = try #require(FileManager.default.attributesOfItem(atPath: path + "/snapshot")[.size] as? Int)
        #expect(quarter == snapshot, "no compaction below a quarter of the snapshot")
        for _ in 0..<10 {
            try store.update { $0.updateValue("edit \(edits)", at: edits) }
            edits += 1
        }
        try store.close()
        #expect(try logBytes() < 2_000, "compacted once the log reached a quarter of the snapshot")
    }

    @Test func closedStoreRejectsChangesButStillReads() throws {
        let directory = try TemporaryDirectory()
        let store = try DurableReplica<String>(directory: directory.file("replica"))
        try store.update { $0.append("kept") }
        try store.close()
        #expect(throws: StoreError.closed) { try store.update { $0.append("lost") } }
        #expect(store.read { $0.count } == 1)
        try store.close()
    }

    @Test func rejectedMergeIsNotLogged() throws {
        let directory = try TemporaryDirectory()
        let store = try DurableReplica<String>(directory: directory.file("replica"))
        #expect {
            try store.merge(ChangeSet(decoding: HandEncoded.uncoveredInsert(covering: false)))
        } throws: { error in
            guard case .mergeRejected(.uncoveredOperation) = error as? StoreError else { return false }
            return true
        }
        try store.close()
        let reopened = try DurableReplica<String>(directory: directory.file("replica"))
        #expect(reopened.read { $0.isEmpty } && reopened.recoveryReport.recordsReplayed == 0)
        try reopened.close()
    }

    @Test func secondOpenInTheSameProcessIsLocked() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("replica")
        let store = try DurableReplica<String>(directory: path)
        let error = #expect(throws: StoreError.self) { try DurableReplica<String>(directory: path) }
        #expect(error == .locked(path: path))
        #expect(
            error.map { "\($0)" }
                == "the replica at \(path) is in use by another process or open store; close that one first")
        try store.close()
        try DurableReplica<String>(directory: path).close()
    }
}

/// The README's "Durable replicas" example, with a peer and its change set filled in.
struct ReadmeExampleTests {
    /// Stands in for the app's connection to a peer.
    @Test func updateMergeReadAndReopen() throws {
        let directory = try TemporaryDirectory()
        let groceriesPath = directory.file("groceries")
        let other = ReplicatedList<String>()
        other.append("Eggs")
        let store = try DurableReplica<String>(directory: groceriesPath)
        try store.update { list in list.append("Milk") }
        try store.merge(other.changes(since: VersionVector()))
        let titles = store.read { list in list.map(\.value) }
        try store.close()

        #expect(Set(titles) == ["Milk", "Eggs"])
        let reopened = try DurableReplica<String>(directory: groceriesPath)
        #expect(reopened.read { list in list.map(\.value) } == titles)
        try reopened.close()
    }

    @Test func severalEditsInOneUpdateAreOneRecordAndOneBatch() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("groceries")
        let store = try DurableReplica<String>(directory: path)
        try store.update { $0.append(contentsOf: ["Milk", "Eggs"]) }
        let before = store.read { Array($0) }
        let commit = try store.update { list in
            list.append("Tea")
            list.move(from: 2, to: 0)
            list.remove(at: 1)
        }
        #expect(commit.ticket.sequence == 2, "one log record for the three edits")
        #expect(commit.change == ListChange(removed: [0], inserted: [0]))
        var mirror = BatchMirror(before)
        try mirror.apply(commit.change, from: store.read { Array($0) })
        #expect(commit.changes.operationCount == 3)
        try store.close()
        let reopened = try DurableReplica<String>(directory: path)
        #expect(reopened.read { $0.map(\.value) } == ["Tea", "Eggs"])
        try reopened.close()
    }
}
