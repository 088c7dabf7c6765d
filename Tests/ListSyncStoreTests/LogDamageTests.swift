import Foundation
import ListSync
import ListSyncStore
import Synchronization
import Testing

/// Torn writes at the end of the log, and damaged bytes in its middle.
struct LogDamageTests {
    /// A replica `source` in `directory` whose last segment holds `changes.count` change records, with
    /// the offset where each record starts and the segment's final size.
    struct LoggedReplica {
        let directory: TemporaryDirectory
        let segment: String
        let changes: [ChangeSet]
        let recordStarts: [Int]
        let end: Int

        init(records: Int) throws {
            directory = try TemporaryDirectory()
            let store = try DurableReplica<String>(directory: directory.file("source"))
            segment = try directory.segments(in: "source").last!
            let path = directory.file("source/" + segment)
            var changes: [ChangeSet] = []
            var starts: [Int] = []
            for index in 0..<records {
                starts.append(try Self.size(of: path))
                changes.append(try store.update { $0.insert("row \(index)", at: index / 2) }.changes)
            }
            end = try Self.size(of: path)
            try store.close()
            self.changes = changes
            recordStarts = starts
        }

        static func size(of path: String) throws -> Int {
            try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        }

        /// The state of a replica that merged the first `count` changes.
        func stateAfter(_ count: Int) throws -> ChangeSet {
            let list = ReplicatedList<String>()
            for changes in self.changes.prefix(count) { try list.merge(changes) }
            return fullState(list)
        }

        /// A copy named `name` whose segment bytes are transformed by `edit`; returns the copy's path.
        func copy(_ name: String, editing edit: (inout [UInt8]) -> Void) throws -> String {
            try directory.copyReplica("source", to: name)
            let path = directory.file(name + "/" + segment)
            var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            edit(&bytes)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return directory.file(name)
        }
    }

    @Test func everyCutOfTheLastRecordOpensWithExactlyTheEarlierRecords() throws {
        let logged = try LoggedReplica(records: 6)
        let expected = try logged.stateAfter(5)
        let lastStart = logged.recordStarts[5]
        for cut in lastStart..<logged.end {
            let path = try logged.copy("cut\(cut)") { $0.removeLast($0.count - cut) }
            let store = try DurableReplica<String>(directory: path)
            #expect(store.read { fullState($0) } == expected, "cut at \(cut)")
            let torn = store.recoveryReport.tornTails
            if cut == lastStart {
                #expect(torn.isEmpty)
            } else {
                #expect(torn.count == 1 && torn[0].offset == lastStart && torn[0].droppedBytes == cut - lastStart)
            }
            try store.close()
            let again = try DurableReplica<String>(directory: path)
            #expect(again.recoveryReport.isClean && again.read { fullState($0) } == expected)
            try again.close()
        }
    }

    @Test func zeroFilledTailIsTorn() throws {
        let logged = try LoggedReplica(records: 3)
        let path = try logged.copy("zeros") { $0.append(contentsOf: repeatElement(0, count: 100)) }
        let logs = LogLines()
        let store = try DurableReplica<String>(directory: path, options: StoreOptions(log: logs.append))
        #expect(store.read { fullState($0) } == (try logged.stateAfter(3)))
        #expect(store.recoveryReport.tornTails.first?.droppedBytes == 100)
        #expect(logs.lines.count == 1 && logs.lines[0].contains("truncated 100 torn bytes"))
        try store.close()
    }

    /// Offsets inside record 2 (of 5) to flip a bit at: length, payload CRC, header CRC, type, body.
    @Test(arguments: [0, 5, 9, 12, 20])
    func bitFlipInTheMiddleIsATypedErrorAndSalvageKeepsThePrefix(offsetInRecord: Int) throws {
        let logged = try LoggedReplica(records: 5)
        let damaged = logged.recordStarts[2]
        let path = try logged.copy("flipped") { $0[damaged + offsetInRecord] ^= 0x10 }
        let segmentPath = path + "/" + logged.segment
        #expect {
            try DurableReplica<String>(directory: path)
        } throws: { error in
            guard case .corrupt(let file, let offset, _) = error as? StoreError else { return false }
            return file == segmentPath && offset == damaged
        }
        let damagedBytes = try Data(contentsOf: URL(fileURLWithPath: segmentPath))
        let salvaged = try DurableReplica<String>(directory: path, options: StoreOptions(recovery: .salvage))
        #expect(salvaged.read { fullState($0) } == (try logged.stateAfter(2)))
        #expect(salvaged.recoveryReport.salvaged.count == 1)
        // Nothing is deleted: the damaged segment is kept whole under the name the report gives.
        let salvage = try #require(salvaged.recoveryReport.salvaged.first)
        #expect(salvage.keptBytes == damaged && salvage.movedTo == segmentPath + ".damaged-1")
        #expect(try Data(contentsOf: URL(fileURLWithPath: segmentPath + ".damaged-1")) == damagedBytes)
        #expect(salvaged.recoveryReport.lines.first?.contains("moved aside to \(segmentPath).damaged-1") == true)
        try salvaged.update { $0.append("after salvage") }
        let state = salvaged.read { fullState($0) }
        try salvaged.close()
        let reopened = try DurableReplica<String>(directory: path)
        #expect(reopened.recoveryReport.isClean && reopened.read { fullState($0) } == state)
        try reopened.close()
    }
}

/// Collects the lines a store logs.
final class LogLines: Sendable {
    private let storage = Mutex<[String]>([])

    /// The lines so far.
    var lines: [String] { storage.withLock { $0 } }

    /// Adds a line.
    @Sendable func append(_ line: String) { storage.withLock { $0.append(line) } }
}
