import Foundation
import Testing

/// The default demo, as a new user runs it: `swift run syncdemo`.
@Suite struct DemoTests {
    @Test func defaultDemoConvergesOverTCPAndExitsZero() throws {
        let outcome = try SyncDemoProcess.run([], timeout: 120)
        #expect(outcome.status == 0, "stderr: \(outcome.errors)")
        let lines = outcome.output.split(separator: "\n").map(String.init)
        let verdict = try #require(lines.lastIndex { $0.hasPrefix("converged: 3 replicas over TCP") })
        // Not a terminal: plain `name: row | row` lines, no escape codes.
        #expect(!outcome.output.contains("\u{1B}["))
        let finalLists = lines[..<verdict].suffix(3)
        #expect(finalLists.map { $0.split(separator: ":")[0] } == ["phone", "laptop", "tablet"])
        let rows = finalLists.map { $0.split(separator: ":", maxSplits: 1)[1] }
        #expect(Set(rows).count == 1, "the replicas' final lists differ: \(finalLists)")
        // The story's outcomes: Rome moved once and renamed, Lima deleted, contacts committed, Grace withdrawn.
        let final = String(rows[0]).split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(final.count { $0 == "Roma" } == 1)
        #expect(!final.contains("Lima") && !final.contains("Rome") && !final.contains("Cairo"))
        #expect(final.contains("Ada Lovelace · +44 20 7946 0000"))
        #expect(!final.contains { $0.contains("Grace") || $0.hasPrefix("…") })
        // While loading, the phone showed pending placeholders the others did not.
        #expect(lines.contains { $0.hasPrefix("phone: …Grace Hopper (loading…)") })
        #expect(!lines.contains { ($0.hasPrefix("laptop:") || $0.hasPrefix("tablet:")) && $0.contains("…") })
    }

    /// Piped, the story's narrative fits 80 columns, wrapped at blanks; only the lists' plain
    /// `name: row | row` lines, which scripts parse, are as long as their rows.
    @Test func theNarrativeFits80ColumnsWrappedBetweenWords() throws {
        let outcome = try SyncDemoProcess.run(["--load-delay", "10ms"], timeout: 120)
        #expect(outcome.status == 0, "stderr: \(outcome.errors)")
        let lines = outcome.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let isList = { (line: String) in ["phone: ", "laptop: ", "tablet: "].contains { line.hasPrefix($0) } }
        let narrative = lines.filter { !isList($0) }
        #expect(narrative.count > 30)
        for line in narrative { #expect(line.count <= 80, "\(line.count) columns: \(line)") }
        // Wrapped between words: a step title over 80 columns continues indented under its text.
        let title = try #require(lines.firstIndex { $0.hasPrefix("6. The tablet selects Paris, Cairo and Rome") })
        #expect(lines[title + 1].hasPrefix("   ") && !lines[title + 1].hasPrefix("    "))
        #expect(lines[title].last != " " && !lines[title + 1].dropFirst(3).hasPrefix(" "))
        let words = (lines[title] + " " + lines[title + 1].dropFirst(3)).split(separator: " ")
        #expect(words.contains("Quito.") && words.contains("top;"), "\(words)")
    }

    @Test func helpAndVersion() throws {
        let help = try SyncDemoProcess.run(["--help"])
        #expect(help.status == 0)
        for section in ["OVERVIEW:", "USAGE:", "SUBCOMMANDS:", "OPTIONS:"] { #expect(help.output.contains(section)) }
        let demoHelp = try SyncDemoProcess.run(["demo", "--help"])
        #expect(demoHelp.status == 0)
        #expect(demoHelp.output.hasPrefix("OVERVIEW: "))
        #expect(demoHelp.output.contains("--load-delay <duration>"))
        #expect(try SyncDemoProcess.run(["help", "demo"]).output == demoHelp.output)
        let version = try SyncDemoProcess.run(["--version"])
        #expect(version.status == 0 && version.output.hasPrefix("syncdemo "))
    }

    @Test(arguments: [
        (["--frobnicate"], "unknown option '--frobnicate'"),
        (["demo", "--load-dealy", "2s"], "did you mean '--load-delay'?"),
        (["demo", "--load-delay"], "needs a value"),
        (["demo", "--load-delay", "soon"], "option '--load-delay': 'soon' is not a duration"),
        (["demo", "extra"], "unexpected argument 'extra'"),
        (["dmeo"], "did you mean 'demo'?"),
    ])
    func usageErrorsExitWith64AndSayWhatWasWrong(arguments: [String], message: String) throws {
        try SyncDemoProcess.expectUsageError(arguments, saying: message, help: "--help")
    }
}
