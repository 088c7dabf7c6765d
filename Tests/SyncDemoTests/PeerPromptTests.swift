import Foundation
import Testing

/// What `syncdemo peer` answers at its prompt, piped: typos, ambiguous names, block moves, control
/// characters, quitting, and the announcements of peers' changes.
@Suite struct PeerPromptTests {
    /// Runs a lone peer on `script` and returns the outcome.
    func run(_ script: String) throws -> SyncDemoProcess.Outcome {
        try SyncDemoProcess.run(["peer", "--name", "solo"], input: script)
    }

    @Test func aTypoSuggestsTheNearestCommand() throws {
        let outcome = try run("lsit\nqiut\n")
        #expect(
            outcome.errors.contains("line 1 'lsit': unknown command 'lsit'; did you mean 'list'?"), "\(outcome.errors)")
        #expect(outcome.errors.contains("line 2 'qiut': unknown command 'qiut'; did you mean 'quit'?"))
    }

    @Test func anAmbiguousRowNameAsksForAnIndexAndChangesNothing() throws {
        let outcome = try run(
            "add Paris Rome Paris\ndelete Paris\nmove Paris top\nedit Paris Lutetia\ndelete 2\nedit Paris Lutetia\nlist\n"
        )
        for line in 2...4 {
            #expect(outcome.errors.contains("line \(line) "), "\(outcome.errors)")
        }
        #expect(outcome.errors.contains("2 rows read 'Paris' (rows 0 and 2); name the one you mean by its index"))
        #expect(outcome.errors.contains("3 commands failed"))
        #expect(outcome.output.contains("solo: Lutetia | Rome\n"), "\(outcome.output)")
    }

    @Test func aMoveNamingRowsOutOfListOrderKeepsTheirListOrderAndSaysSo() throws {
        let outcome = try run("add A B C D\nmove 3,1 top\nlist\nmove B,D bottom\nlist\n")
        #expect(outcome.output.contains("ok: 2 moved; the rows keep their list order: 'B', 'D'"), "\(outcome.output)")
        #expect(outcome.output.contains("solo: B | D | A | C\n"))
        #expect(outcome.output.contains("solo: A | C | B | D\n"))
        #expect(!outcome.output.contains("ok: 2 moved;\n"))
        #expect(outcome.status == 0, "\(outcome.errors)")
    }

    @Test func controlCharactersNeverReachARowFromAPipe() throws {
        let outcome = try run(
            "add \"Oslo\u{1B}[D\u{1B}[DX\"\nadd 'a\tb'\nadd Lima\u{7F}\nedit 0 \"\u{C2}\u{9B}31m\"\nadd Rome\nlist\n")
        #expect(
            outcome.errors.contains(
                "line 1 'add \"Oslo\\u{1B}[D\\u{1B}[DX\"': the text 'Oslo\\u{1B}[D\\u{1B}[DX' holds the control character U+001B at character 5"
            ), "\(outcome.errors)")
        #expect(outcome.errors.contains("holds the control character U+0009 at character 2"))
        #expect(outcome.errors.contains("holds the control character U+007F at character 5"))
        #expect(outcome.errors.contains("4 commands failed"))
        #expect(outcome.errors.firstControlCharacterOutsideLineEnds == nil)
        #expect(outcome.output.contains("solo: Rome\n"), "\(outcome.output)")
    }

    @Test func checkMarksRowsThatListShowsAndEditKeeps() throws {
        let outcome = try run(
            "add \"Buy milk\" Bread\ncheck \"Buy milk\"\nedit 0 \"Buy oat milk\"\nlist\nuncheck 0\nlist\n")
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output.contains("solo: ✓ Buy oat milk | Bread\n"), "\(outcome.output)")
        #expect(outcome.output.contains("solo: Buy oat milk | Bread\n"), "\(outcome.output)")
        let help = try run("help\n")
        #expect(help.output.contains("check ROWS") && help.output.contains("uncheck ROWS"), "\(help.output)")
    }

    @Test func aControlCharacterInTheNameIsAUsageError() throws {
        try SyncDemoProcess.expectUsageError(
            ["peer", "--name", "a\u{1B}[2J"], saying: "option '--name' cannot hold control characters",
            help: "syncdemo peer --help")
    }

    @Test func quitSaysWhatItWaitsFor() throws {
        let outcome = try run("drop 0 Ada --delay 500ms\nquit\n")
        #expect(outcome.errors.contains("quitting: waiting for 1 drop load to end"), "\(outcome.errors)")
        #expect(outcome.output.contains("drop: loaded \"Ada\""))
        let idle = try run("quit\n")
        #expect(idle.errors.contains("quitting: nothing to wait for"), "\(idle.errors)")
    }
}

extension String {
    /// The first control character other than a line end, for output checks.
    var firstControlCharacterOutsideLineEnds: Unicode.Scalar? {
        unicodeScalars.first { $0.properties.generalCategory == .control && $0 != "\n" && $0 != "\r" }
    }
}
