import Foundation
import ListSync
import Testing

@testable import ListSyncStore

/// A log segment that a later segment follows was complete: cutting it at a record boundary drops
/// acknowledged changes while later ones remain, which must be damage, not a shorter log. (Found by
/// the long store fuzz run: seed 15737957 truncated the middle of three segments at a record boundary
/// and the replica opened cleanly to a state that is no prefix of its history.)
struct SegmentSealTests {
    /// A replica of three segments: two rows in the first, two in the second, one in the third (each
    /// open starts a segment); the second segment's size after its first row, and the states after 2,
    /// 3 and 5 rows.
    struct ThreeSegments {
        let directory: TemporaryDirectory
        let segments: [String]
        let cutAt: Int
        let states: [Int: ChangeSet]

        init() throws {
            directory = try TemporaryDirectory()
            let path = directory.file("source")
            var rows = 0
            var cutAt = 0
            var states: [Int: ChangeSet] = [:]
            for (segment, count) in [2, 2, 1].enumerated() {
                let store = try DurableReplica<String>(directory: path)
                for _ in 0..<count {
                    try store.update { $0.append("row \(rows)") }
                    rows += 1
                    states[rows] = store.read { fullState($0) }
                    if segment == 1 && cutAt == 0 {
                        let second = try directory.segments(in: "source").last!
                        cutAt = try LogDamageTests.LoggedReplica.size(of: path + "/" + second)
                    }
                }
                try store.close()
            }
            segments = try directory.segments(in: "source")
            self.cutAt = cutAt
            self.states = states
        }
    }

    @Test func aMiddleSegmentCutAtARecordBoundaryIsDamage() throws {
        let replica = try ThreeSegments()
        #expect(replica.segments.count == 3)
        try replica.directory.copyReplica("source", to: "cut")
        let middle = replica.directory.file("cut/" + replica.segments[1])
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: middle)))
        try Data(bytes.prefix(replica.cutAt)).write(to: URL(fileURLWithPath: middle))
        // The third segment starts by recording the second's length: the damage is found there.
        let third = replica.directory.file("cut/" + replica.segments[2])
        #expect {
            try DurableReplica<String>(directory: replica.directory.file("cut"))
        } throws: { error in
            guard case .corrupt(let file, let offset, let reason) = error as? StoreError else { return false }
            return file == third && offset == 28
                && reason.hasPrefix("\(replica.segments[1]) holds \(replica.cutAt) bytes, but this segment records")
        }
        // Salvage keeps what precedes the missing records and sets the later segment aside, whole.
        let salvaged = try DurableReplica<String>(
            directory: replica.directory.file("cut"), options: StoreOptions(recovery: .salvage))
        #expect(salvaged.read { fullState($0) } == replica.states[3])
        #expect(!salvaged.recoveryReport.isClean)
        try salvaged.close()
        #expect(FileManager.default.fileExists(atPath: third + ".damaged-1"))
        let reopened = try DurableReplica<String>(directory: replica.directory.file("cut"))
        #expect(reopened.recoveryReport.isClean && reopened.read { fullState($0) } == replica.states[3])
        try reopened.close()
    }

    @Test func segmentsThatWereNotCutOpenCleanly() throws {
        let replica = try ThreeSegments()
        let store = try DurableReplica<String>(directory: replica.directory.file("source"))
        #expect(store.recoveryReport.isClean)
        #expect(store.read { fullState($0) } == replica.states[5])
        try store.close()
    }

    /// Segments written before the seal (format version 1: no record of the previous segment's length)
    /// still open, with every record; a version 2 segment after them seals the last of them.
    @Test func version1SegmentsStillOpen() throws {
        let replica = try ThreeSegments()
        try replica.directory.copyReplica("source", to: "old")
        // Rewrite every segment as version 1 wrote it: version byte 1, no previous-segment record.
        for name in replica.segments {
            let path = replica.directory.file("old/" + name)
            var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            bytes[4] = 1
            let crc = CRC32C.checksum(bytes[0..<24])
            bytes.replaceSubrange(24..<28, with: withUnsafeBytes(of: crc.littleEndian, Array.init))
            let scanner = LogScanner(bytes, from: LogSegment.headerSize)
            var start = LogSegment.headerSize
            var kept = Array(bytes[0..<LogSegment.headerSize])
            for (record, end) in scanner.records {
                if case .previousSegment = record {} else { kept += bytes[start..<end] }
                start = end
            }
            #expect(kept.count < bytes.count || name == replica.segments[0])
            try Data(kept).write(to: URL(fileURLWithPath: path))
        }
        let store = try DurableReplica<String>(directory: replica.directory.file("old"))
        #expect(store.recoveryReport.isClean)
        #expect(store.read { fullState($0) } == replica.states[5])
        try store.close()
    }
}
