import Foundation
import Testing

/// The README's `syncdemo simulate` example is what the command prints (all but its timing line).
struct ReadmeSimulateTests {
    /// The package root.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func theReadmesSimulateExampleIsWhatTheCommandPrints() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let command = try #require(lines.firstIndex { $0.hasPrefix("$ swift run syncdemo simulate ") })
        let end = try #require(lines[command...].firstIndex { $0 == "```" })
        // The command continues on the next line after a backslash; the output follows.
        let commandText = (lines[command] + " " + lines[command + 1]).replacingOccurrences(of: "\\", with: " ")
        let arguments = commandText.split(separator: " ").map(String.init).drop { $0 != "simulate" }
        let outcome = try SyncDemoProcess.run(Array(arguments))
        #expect(outcome.status == 0)
        let expected = lines[(command + 2)..<end]
        let printed = outcome.output.split(separator: "\n").map(String.init)
        #expect(printed.count == expected.count, "\(outcome.output)")
        for (shown, actual) in zip(expected, printed) {
            if shown.hasPrefix("time to converge:") {
                #expect(actual.hasPrefix("time to converge:"))
            } else {
                #expect(shown == actual)
            }
        }
    }
}
