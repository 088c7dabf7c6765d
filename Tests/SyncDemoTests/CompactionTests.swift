import Foundation
import Testing

/// `syncdemo peer --data` compacts its store: on a clean quit, and whenever the log reaches
/// `--compact-at` and a quarter of the snapshot (64 KiB by default, the store's default), so opening
/// never replays a long log.
@Suite struct CompactionTests {
    /// Owns the directory.
    let scratch = PeerTests.Scratch()
    /// The replica directory under test.
    var data: String { scratch.url.appendingPathComponent("data").path }

    init() throws {
        try FileManager.default.createDirectory(at: scratch.url, withIntermediateDirectories: true)
    }

    /// Starts a peer on ``data`` with `arguments`.
    func peer(_ arguments: [String] = []) throws -> PeerProcess {
        try PeerProcess(name: "p", ["--data", data] + arguments, in: scratch.url)
    }

    /// The sizes of the directory's log segments, and whether it holds a snapshot.
    func files() throws -> (segments: [Int], snapshot: Bool) {
        let names = try FileManager.default.contentsOfDirectory(atPath: data)
        let segments = try names.filter { $0.hasPrefix("log-") }.map { name in
            try FileManager.default.attributesOfItem(atPath: data + "/" + name)[.size] as? Int ?? -1
        }
        return (segments, names.contains("snapshot"))
    }

    @Test func aCleanQuitCompactsAndTheRowsReopenTheSame() throws {
        let writer = try peer()
        for word in ["Paris", "Rome", "Tokyo", "Lima", "Oslo", "Cairo", "Quito", "Hanoi"] {
            _ = try writer.ask("add \(word)", replyStartingWith: "ok: 1 inserted")
        }
        _ = try writer.ask("move Lima top", replyStartingWith: "ok: 1 moved")
        _ = try writer.ask("delete Rome", replyStartingWith: "ok: 1 removed")
        _ = try writer.ask("edit Oslo Bergen", replyStartingWith: "ok: 1 updated")
        let rows = try writer.rows()
        #expect(try files().segments.reduce(0, +) > 500, "the edits are logged before the quit")
        try writer.send("quit")
        #expect(try writer.finish() == 0, "\(writer.errors)")

        let (segments, snapshot) = try files()
        #expect(snapshot, "a clean quit writes a snapshot")
        // A fresh segment: its 28-byte header, then the previous segment's length and a reservation
        // (21 bytes each).
        #expect(segments.reduce(0, +) <= 70, "the log the snapshot covers is dropped: \(segments)")
        let reopened = try peer()
        #expect(try reopened.rows() == rows)
        let resumed = "resumed with 7 rows (from a snapshot and 0 log records)"
        #expect(reopened.errors.contains(resumed), "\(reopened.errors)")
        _ = try reopened.ask("add Lisbon", replyStartingWith: "ok: 1 inserted")
        #expect(try reopened.rows() == rows + ["Lisbon"])
        #expect(try reopened.finish() == 0)
    }

    @Test func theLogIsCompactedWhenItReachesTheThreshold() throws {
        let writer = try peer(["--compact-at", "64KiB"])
        let text = String(repeating: "n", count: 2_000)
        for index in 0..<80 { _ = try writer.ask("add \(index)\(text)", replyStartingWith: "ok: 1 inserted") }
        writer.kill()  // no clean quit: only the threshold compacted
        let (segments, snapshot) = try files()
        #expect(snapshot, "a snapshot was written when the log reached 64 KiB")
        #expect(segments.allSatisfy { $0 < 64 * 1024 + 4096 }, "\(segments)")
        let reopened = try peer()
        try reopened.waitForError(containing: "resumed with 80 rows")
        #expect(try reopened.finish() == 0)
    }

    /// 64 KiB and a quarter of the snapshot: each 300 KB row compacts until the snapshot passes 1.2 MB.
    @Test func byDefaultTheLogIsCompactedAtAQuarterOfTheSnapshot() throws {
        let writer = try peer()
        let text = String(repeating: "m", count: 300_000)
        for index in 0..<6 { _ = try writer.ask("add \(index)\(text)", replyStartingWith: "ok: 1 inserted") }
        writer.kill()  // no clean quit: only the threshold compacted
        let (segments, snapshot) = try files()
        #expect(snapshot, "a snapshot was written when the log reached a quarter of it")
        #expect(segments.allSatisfy { $0 < 1 << 20 }, "\(segments)")
    }

    @Test func helpNamesTheThresholdAndItsDefault() throws {
        let help = try SyncDemoProcess.run(["peer", "--help"])
        #expect(help.output.contains("--compact-at <size>"))
        #expect(help.output.contains("default 64KiB"))
    }
}
