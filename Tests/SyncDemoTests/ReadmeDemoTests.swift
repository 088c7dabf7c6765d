import Foundation
import Testing

/// The README's excerpt of `swift run syncdemo` is what the demo prints on an 80-column terminal (run
/// under `script`, which gives it one), but for the figures of its last line, which vary run to run.
struct ReadmeDemoTests {
    /// `script` from util-linux, which runs a command on a pseudo-terminal.
    static let script = "/usr/bin/script"

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: script)))
    func theReadmesDemoExcerptIsWhatTheDemoPrintsOnATerminal() throws {
        let readme = try String(
            contentsOf: ReadmeSimulateTests.root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("1. The phone adds") })
        let end = try #require(lines[start...].firstIndex { $0 == "```" })
        let excerpt = Array(lines[start..<end])
        let binary = try SyncDemoProcess.binary().path
        let outcome = try SyncDemoProcess.run(
            ["-qec", "stty cols 80 rows 60; '\(binary)'", "/dev/null"], executable: Self.script)
        #expect(outcome.status == 0, "\(outcome.errors)")
        // The terminal's output, without colours and carriage returns.
        let printed = outcome.output.replacingOccurrences(of: "\r", with: "")
            .replacing(/\u{1B}\[[0-9;]*m/, with: "").split(separator: "\n", omittingEmptySubsequences: false)
            .map { String($0).replacing(/\ +$/, with: "") }
        // Each part of the excerpt between `...` lines is a run of consecutive printed lines, in order.
        var searchFrom = 0
        for part in excerpt.split(separator: "...", omittingEmptySubsequences: false) {
            let part = Array(part)
            let figures = part.last?.hasPrefix("converged:") == true
            let fixed = figures ? Array(part.dropLast()) : part
            let found = (searchFrom...max(searchFrom, printed.count - fixed.count)).first {
                Array(printed[$0..<min($0 + fixed.count, printed.count)]) == fixed
            }
            guard let found else {
                Issue.record("not printed as the README shows it:\n\(fixed.joined(separator: "\n"))")
                return
            }
            searchFrom = found + fixed.count
            if figures {
                let summary = try #require(printed[searchFrom...].first { $0.hasPrefix("converged:") })
                #expect(summary.hasPrefix("converged: 3 replicas over TCP, 8 rows, "), "\(summary)")
            }
        }
    }
}
