import Foundation
import Testing

/// `syncdemo peer --data` on a damaged directory: it says what recovery cut, its errors name only
/// options that exist, and `--recovery salvage` opens what strict recovery refuses.
@Suite struct RecoveryOptionTests {
    /// Owns the directory.
    let scratch = PeerTests.Scratch()
    /// The replica directory under test.
    var data: String { scratch.url.appendingPathComponent("data").path }

    init() throws {
        try FileManager.default.createDirectory(at: scratch.url, withIntermediateDirectories: true)
    }

    /// The rows written by ``writeRows(_:)``: `Row01`, `Row02`, ...
    static func rows(_ count: Int) -> [String] { (1...count).map { "Row" + ($0 < 10 ? "0" : "") + "\($0)" } }

    /// Starts a peer on ``data`` with `arguments`.
    func peer(_ arguments: [String] = []) throws -> PeerProcess {
        try PeerProcess(name: "p", ["--data", data] + arguments, in: scratch.url)
    }

    /// Adds `count` rows, one logged record each, then kills the peer (so nothing is compacted).
    func writeRows(_ count: Int) throws {
        let writer = try peer()
        for row in Self.rows(count) { _ = try writer.ask("add \(row)", replyStartingWith: "ok: 1 inserted") }
        writer.kill()
    }

    /// The path of the log segment holding records, and its bytes.
    func lastSegment() throws -> (path: String, bytes: [UInt8]) {
        let names = try FileManager.default.contentsOfDirectory(atPath: data).filter { $0.hasPrefix("log-") }.sorted()
        for name in names.reversed() {
            let path = data + "/" + name
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            if bytes.count > 28 { return (path, bytes) }
        }
        throw PeerProcess.Failure(description: "no log segment with records in \(data): \(names)")
    }

    /// Flips one bit of the first occurrence of `text` in the last segment.
    func flipByte(of text: String) throws {
        let (path, bytes) = try lastSegment()
        let needle = Array(text.utf8)
        let start = try #require(
            bytes.indices.first { bytes[$0...].starts(with: needle) }, "'\(text)' is not in \(path)")
        var damaged = bytes
        damaged[start + needle.count - 1] ^= 0x04
        try Data(damaged).write(to: URL(fileURLWithPath: path))
    }

    @Test func aTruncatedLastRecordIsCutAndTheReportSaysSo() throws {
        try writeRows(10)
        let (path, bytes) = try lastSegment()
        try Data(bytes.dropLast(3)).write(to: URL(fileURLWithPath: path))
        let restarted = try peer()
        #expect(try restarted.rows() == Self.rows(9))
        #expect(restarted.errors.contains("resumed with 9 rows"), "\(restarted.errors)")
        let report = "recovery: cut a torn last record of \(path) at byte "
        #expect(restarted.errors.contains(report), "\(restarted.errors)")
        #expect(restarted.errors.contains("(record payload cut short)"), "\(restarted.errors)")
        #expect(try restarted.finish() == 0)
    }

    @Test func aBitFlipInTheLastRecordIsCutAndTheReportSaysSo() throws {
        try writeRows(10)
        try flipByte(of: "Row10")
        let restarted = try peer()
        #expect(try restarted.rows() == Self.rows(9))
        #expect(restarted.errors.contains("recovery: cut a torn last record of "), "\(restarted.errors)")
        #expect(restarted.errors.contains("payload checksum mismatch"), "\(restarted.errors)")
        #expect(try restarted.finish() == 0)
    }

    @Test func damageBeforeTheEndNamesTheSalvageOptionWhichOpensWhatPrecedesIt() throws {
        try writeRows(10)
        try flipByte(of: "Row05")
        let (path, damaged) = try lastSegment()

        let strict = try SyncDemoProcess.run(["peer", "--name", "p", "--data", data])
        #expect(strict.status == 1)
        #expect(strict.errors.contains("\(path) is damaged at byte "), "\(strict.errors)")
        #expect(strict.errors.contains("rerun with --recovery salvage"), "\(strict.errors)")
        #expect(!strict.errors.contains(".salvage"), "names an option the CLI lacks: \(strict.errors)")
        #expect(try lastSegment().bytes == damaged, "strict recovery changes nothing on disk")

        let salvaged = try peer(["--recovery", "salvage"])
        #expect(try salvaged.rows() == Self.rows(4))
        #expect(salvaged.errors.contains("recovery: salvaged \(path) is damaged at byte "), "\(salvaged.errors)")
        #expect(salvaged.errors.contains("moved aside"), "\(salvaged.errors)")
        #expect(try salvaged.finish() == 0)

        let reopened = try peer()
        #expect(try reopened.rows() == Self.rows(4))
        #expect(!reopened.errors.contains("recovery:"), "salvage left a clean directory: \(reopened.errors)")
        #expect(try reopened.finish() == 0)
    }

    @Test func helpNamesTheRecoveryModes() throws {
        let help = try SyncDemoProcess.run(["peer", "--help"])
        #expect(help.output.contains("--recovery <strict|salvage>"))
    }
}
