import Foundation
import Testing

/// `syncdemo peer` processes on loopback, scripted through standard input as a user would drive them.
@Suite struct PeerTests {
    /// A directory removed when the test ends (after its peers, which are locals of the test, are gone).
    final class Scratch {
        /// The directory.
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("syncdemo-peer-\(UUID().uuidString)")

        deinit { try? FileManager.default.removeItem(at: url) }
    }

    /// Owns ``directory``.
    let scratch = Scratch()
    /// A fresh directory for data, secrets and the peers' output.
    var directory: URL { scratch.url }
    /// A good secret file shared by the peers of a test.
    let secret: URL

    init() throws {
        try FileManager.default.createDirectory(at: scratch.url, withIntermediateDirectories: true)
        secret = scratch.url.appendingPathComponent("secret")
        try Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString().appending("\n")
            .write(to: secret, atomically: true, encoding: .utf8)
    }

    /// A peer called `name` with the shared secret and `arguments`.
    func peer(_ name: String, _ arguments: [String] = [], secret: URL? = nil) throws -> PeerProcess {
        try PeerProcess(
            name: name, ["--secret-file", (secret ?? self.secret).path] + arguments, in: directory)
    }

    /// Polls both peers' `list` until they show `expected`, for up to 30 s.
    func expectConverged(_ a: PeerProcess, _ b: PeerProcess, on expected: [String]) throws {
        let deadline = Date().addingTimeInterval(30)
        var last: ([String], [String]) = ([], [])
        while Date() < deadline {
            last = (try a.rows(), try b.rows())
            if last.0 == expected && last.1 == expected { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        Issue.record("not converged on \(expected): \(a.name) \(last.0), \(b.name) \(last.1)\n\(a.errors)\n\(b.errors)")
    }

    @Test func twoPeersConvergeAndOneResumesFromItsDataDirectoryAfterKill9() throws {
        let phoneData = directory.appendingPathComponent("phone").path
        let laptopData = directory.appendingPathComponent("laptop").path
        let phone = try peer("phone", ["--listen", "127.0.0.1:0", "--data", phoneData])
        let address = "127.0.0.1:\(try phone.listeningPort())"
        var laptop = try peer("laptop", ["--connect", address, "--data", laptopData])

        _ = try phone.ask("add Paris Rome Tokyo", replyStartingWith: "ok: 3 inserted")
        try expectConverged(phone, laptop, on: ["Paris", "Rome", "Tokyo"])
        _ = try laptop.ask("move Tokyo top", replyStartingWith: "ok: 1 moved")
        try expectConverged(phone, laptop, on: ["Tokyo", "Paris", "Rome"])
        let peers = try phone.ask("peers", replyStartingWith: "127.0.0.1:")
        #expect(peers.contains("accepted, live, replica "))
        let identity = try laptop.ask("status", replyStartingWith: "replica: ")

        // An edit acknowledged at the prompt survives kill -9, and so does the replica's identity.
        _ = try laptop.ask("add Lima", replyStartingWith: "ok: 1 inserted")
        laptop.kill()
        _ = try phone.ask("delete Rome", replyStartingWith: "ok: 1 removed")
        _ = try phone.ask("insert 0 Oslo", replyStartingWith: "ok: 1 inserted")
        // Restarted alone (no --connect), the laptop shows what its directory kept, Lima included.
        laptop = try peer("laptop", ["--data", laptopData])
        #expect(try laptop.ask("status", replyStartingWith: "replica: ") == identity)
        #expect(try laptop.rows() == ["Tokyo", "Paris", "Rome", "Lima"])
        #expect(laptop.errors.contains("resumed with 4 rows"))
        _ = try laptop.ask("connect \(address)", replyStartingWith: "dialing \(address)")
        _ = try laptop.ask("edit Paris Lutetia", replyStartingWith: "ok: 1 updated")
        try expectConverged(phone, laptop, on: ["Oslo", "Tokyo", "Lutetia", "Lima"])
        #expect(try phone.finish() == 0)
        #expect(try laptop.finish() == 0)
    }

    /// `name` and `select` show this peer to the others: `peers` says who is here and what they select,
    /// and `list` marks the rows they select; a bad row or an overlong name changes nothing.
    @Test func namesAndSelectionsShowOnThePeersListsAndPeersReport() throws {
        let phone = try peer("phone", ["--listen", "127.0.0.1:0"])
        let laptop = try peer("laptop", ["--connect", "127.0.0.1:\(try phone.listeningPort())"])
        _ = try laptop.ask("add Paris Rome Tokyo", replyStartingWith: "ok: 3 inserted")
        try expectConverged(phone, laptop, on: ["Paris", "Rome", "Tokyo"])
        _ = try laptop.ask("select Paris,Tokyo", replyStartingWith: "ok: 2 rows selected")
        _ = try laptop.wait("be shown on the phone") {
            (try? phone.rows()) == ["Paris ◂ laptop", "Rome", "Tokyo ◂ laptop"] ? () : nil
        }
        _ = try laptop.ask("name \"Ana's laptop\"", replyStartingWith: "ok: named 'Ana's laptop'")
        let here = try phone.wait("report the laptop's new name") {
            let offset = phone.output.count
            try? phone.send("peers")
            Thread.sleep(forTimeInterval: 0.1)
            return phone.output.dropFirst(offset).split(separator: "\n").first {
                $0.hasPrefix("here: ") && $0.contains("Ana's laptop")
            }.map(String.init)
        }
        #expect(here.hasSuffix(": 'Ana's laptop' selects 'Paris', 'Tokyo'"), "\(here)")
        try laptop.send("select Lima")
        try laptop.waitForError(containing: "'select Lima': no row reads 'Lima'")
        try laptop.send("name " + String(repeating: "n", count: 65))
        try laptop.waitForError(containing: "the name has 65 bytes of UTF-8, more than 64; nothing changed")
        _ = try laptop.ask("select none", replyStartingWith: "ok: nothing selected")
        _ = try laptop.wait("be cleared on the phone") { (try? phone.rows()) == ["Paris", "Rome", "Tokyo"] ? () : nil }
        // A drop loading on the laptop shows on the phone below the row it follows, until it lands.
        _ = try laptop.ask("drop 1 Ada Bob --delay 3s", replyStartingWith: "ok: 2 pending placeholders inserted")
        _ = try laptop.wait("show the drop on the phone") {
            (try? phone.rows()) == ["Paris ◂ Ana's laptop (dropping 2 below)", "Rome", "Tokyo"] ? () : nil
        }
        try expectConverged(phone, laptop, on: ["Paris", "Ada", "Bob", "Rome", "Tokyo"])
        #expect(try phone.finish() == 0)
        #expect(try laptop.finish() == 1)  // two commands failed
    }

    /// `--doc` syncs more documents over the same port and connections, each with its own secret;
    /// `use` and `DOCUMENT:` send commands to one, and `list`, `peers` and announcements name it.
    @Test func documentsGivenWithDocSyncWithThePeersThatHoldThem() throws {
        let choresSecret = directory.appendingPathComponent("chores.secret")
        try "a secret for the chores list only".write(to: choresSecret, atomically: true, encoding: .utf8)
        let chores = "chores=\(choresSecret.path)"
        let phone = try peer("phone", ["--listen", "127.0.0.1:0", "--doc", chores, "--doc", "garden"])
        let laptop = try peer("laptop", ["--connect", "127.0.0.1:\(try phone.listeningPort())", "--doc", chores])
        _ = try phone.ask("add milk", replyStartingWith: "ok: 1 inserted")
        _ = try laptop.ask("chores: add sweep", replyStartingWith: "ok: 1 inserted")
        _ = try phone.wait("receive the chores") { (try? phone.rows(in: "chores")) == ["sweep"] ? () : nil }
        _ = try phone.ask("use chores", replyStartingWith: "commands go to 'chores' now")
        _ = try phone.ask("add dust", replyStartingWith: "ok: 1 inserted")
        _ = try laptop.wait("receive dust") { (try? laptop.rows(in: "chores")) == ["sweep", "dust"] ? () : nil }
        _ = try laptop.wait("receive milk") { (try? laptop.rows(in: "syncdemo")) == ["milk"] ? () : nil }
        #expect(try phone.rows(in: "syncdemo") == ["milk"] && phone.rows(in: "garden") == [])
        #expect(try phone.ask("list", replyStartingWith: "phone[") == "phone[chores]: sweep | dust")
        _ = try laptop.waitForOutputLine(startingWith: "[syncdemo] <- 1 inserted")
        _ = try phone.waitForOutputLine(startingWith: "[chores] <- 1 inserted")
        let offset = laptop.output.count
        try laptop.send("peers")
        let lines = try laptop.wait("list both documents' connections") {
            let lines = laptop.output.dropFirst(offset).split(separator: "\n").filter { $0.hasPrefix("127.0.0.1:") }
            return lines.count == 2 ? lines.map(String.init).sorted() : nil
        }
        #expect(lines[0].contains(" [chores] dialed, live"), "\(lines)")
        #expect(lines[1].contains(" [syncdemo] dialed, live"), "\(lines)")
        try phone.send("nope: list")
        try phone.waitForError(
            containing: "no document 'nope' on this peer; the documents: 'syncdemo', 'chores', 'garden'")
        #expect(try phone.finish() == 1)  // one command failed
        #expect(try laptop.finish() == 0)
    }

    /// `--library` keeps every document in one directory: a kill -9 loses no acknowledged row of any, the
    /// next start resumes them all, creates a document named for the first time, says which documents it
    /// holds but does not sync now, and keeps and reports what it did not write.
    @Test func documentsInALibrarySurviveAKillAndARestart() throws {
        let library = directory.appendingPathComponent("library").path
        var phone = try peer("phone", ["--library", library, "--doc", "chores"])
        _ = try phone.ask("add milk", replyStartingWith: "ok: 1 inserted")
        _ = try phone.ask("chores: add sweep", replyStartingWith: "ok: 1 inserted")
        phone.kill()
        try Data("mine".utf8).write(to: URL(fileURLWithPath: library + "/notes.txt"))
        phone = try peer("phone", ["--library", library, "--doc", "chores", "--doc", "garden"])
        #expect(try phone.rows(in: "syncdemo") == ["milk"])
        #expect(try phone.rows(in: "chores") == ["sweep"])
        #expect(try phone.rows(in: "garden") == [])
        try phone.waitForError(containing: "library: \(library)/notes.txt: not written by the library; kept as it is")
        #expect(try phone.finish() == 0)
        phone = try peer("phone", ["--library", library])
        try phone.waitForError(containing: "library: holds 'chores' too, not synced now (--doc 'chores' syncs it)")
        #expect(try phone.rows() == ["milk"])
        #expect(try phone.finish() == 0)
        #expect(FileManager.default.fileExists(atPath: library + "/notes.txt"))
    }

    /// `--doc` values that cannot work are refused before anything starts.
    @Test func badDocumentOptionsAreRefused() throws {
        let data = directory.appendingPathComponent("data").path
        let cases: [([String], String)] = [
            (["--doc", ""], "option '--doc' takes a document ID of 1 to 255 bytes"),
            (["--doc", "syncdemo"], "the document 'syncdemo' is given twice"),
            (["--doc", "a", "--doc", "a"], "the document 'a' is given twice"),
            (
                ["--doc", "a", "--data", data],
                "--data keeps one document; with --doc, keep every document with --library"
            ),
            (["--library", data, "--data", data], "--data keeps one document and --library keeps many"),
        ]
        for (arguments, message) in cases {
            let outcome = try SyncDemoProcess.run(["peer", "--name", "p"] + arguments, input: "")
            #expect(outcome.status == 64, "\(arguments)")
            #expect(outcome.errors.contains(message), "\(arguments): \(outcome.errors)")
        }
        let missing = try SyncDemoProcess.run(["peer", "--name", "p", "--doc", "a=/nonexistent/secret"], input: "")
        #expect(missing.status == 1 && missing.errors.contains("cannot read the secret file '/nonexistent/secret'"))
        #expect(!FileManager.default.fileExists(atPath: data))
    }

    @Test func announcementsOfAPeersChangesNameTheRows() throws {
        let phone = try peer("phone", ["--listen", "127.0.0.1:0"])
        let laptop = try peer("laptop", ["--connect", "127.0.0.1:\(try phone.listeningPort())"])
        _ = try laptop.ask("add Paris Rome Tokyo Lima Oslo", replyStartingWith: "ok: 5 inserted")
        let inserted = try phone.waitForOutputLine(startingWith: "<- 5 inserted")
        #expect(
            inserted.hasPrefix("<- 5 inserted (\"Paris\", \"Rome\", \"Tokyo\" and 2 more) by replica "), "\(inserted)")
        try expectConverged(phone, laptop, on: ["Paris", "Rome", "Tokyo", "Lima", "Oslo"])
        var offset = phone.output.count
        _ = try laptop.ask("move Tokyo top", replyStartingWith: "ok: 1 moved")
        #expect(
            try phone.waitForOutputLine(startingWith: "<- ", after: offset).hasPrefix(
                "<- 1 moved (\"Tokyo\") by replica "))
        offset = phone.output.count
        _ = try laptop.ask("delete Lima,Oslo", replyStartingWith: "ok: 2 removed")
        #expect(
            try phone.waitForOutputLine(startingWith: "<- ", after: offset).hasPrefix(
                "<- 2 removed (\"Lima\" and \"Oslo\")"))
        offset = phone.output.count
        _ = try laptop.ask("edit Rome Roma", replyStartingWith: "ok: 1 updated")
        #expect(try phone.waitForOutputLine(startingWith: "<- ", after: offset).hasPrefix("<- 1 updated (\"Roma\")"))
        #expect(try phone.finish() == 0)
        #expect(try laptop.finish() == 0)
    }

    @Test func aPeerWithTheWrongSecretIsRejectedAndReceivesNothing() throws {
        let phone = try peer("phone", ["--listen", "127.0.0.1:0"])
        let port = try phone.listeningPort()
        _ = try phone.ask("add Paris Rome", replyStartingWith: "ok: 2 inserted")
        let wrong = directory.appendingPathComponent("wrong-secret")
        try "another secret of enough bytes\n".write(to: wrong, atomically: true, encoding: .utf8)
        let intruder = try peer("intruder", ["--connect", "127.0.0.1:\(port)"], secret: wrong)
        try phone.waitForError(containing: "wrongDocument")
        try intruder.waitForError(containing: "wrongDocument")
        #expect(intruder.errors.contains("secrets differ"))
        #expect(try intruder.rows().isEmpty)
        #expect(try phone.ask("status", replyStartingWith: "peers: ").hasPrefix("peers: 0 live of "))
        #expect(try phone.ask("status", replyStartingWith: "listening on ") == "listening on 127.0.0.1:\(port)")
        #expect(try intruder.finish() == 0)
        #expect(try phone.finish() == 0)
    }

    /// The refused peer's `peers` and `status` show why, and when it tries again (after a long backoff).
    @Test func aRefusedPeerShowsItsLastErrorInPeersAndStatus() throws {
        let phone = try peer("phone", ["--listen", "127.0.0.1:0"])
        let port = try phone.listeningPort()
        let wrong = directory.appendingPathComponent("wrong-secret")
        try "another secret of enough bytes\n".write(to: wrong, atomically: true, encoding: .utf8)
        let intruder = try peer("intruder", ["--connect", "127.0.0.1:\(port)"], secret: wrong)
        try intruder.waitForError(containing: "wrongDocument")
        let peers = try intruder.ask("peers", replyStartingWith: "127.0.0.1:\(port) dialed, ")
        #expect(peers.contains("next attempt in "), "peers: \(peers)")
        #expect(peers.contains("last error 16: closedByPeer: code 6: wrongDocument"), "peers: \(peers)")
        let status = try intruder.ask("status", replyStartingWith: "  127.0.0.1:\(port): last error 16")
        #expect(status.contains("wrongDocument"))
        #expect(try intruder.finish() == 0)
        #expect(try phone.finish() == 0)
    }

    @Test func aSecondPeerOnTheSameDataDirectoryFailsWithTheLockHolder() throws {
        let data = directory.appendingPathComponent("shared").path
        let first = try peer("first", ["--data", data])
        _ = try first.waitForOutputLine(startingWith: "peer first started")
        let outcome = try SyncDemoProcess.run(["peer", "--name", "second", "--data", data])
        #expect(outcome.status == 1)
        #expect(outcome.errors.contains("\(data) is in use by another syncdemo peer (pid \(first.pid))"))
        #expect(outcome.errors.contains("another --data directory"))
        #expect(try first.finish() == 0)
    }

    @Test func listeningOnAPortInUseSaysWhichAndSuggestsAnother() throws {
        let first = try peer("first", ["--listen", "127.0.0.1:0"])
        let port = try first.listeningPort()
        let outcome = try SyncDemoProcess.run(["peer", "--name", "second", "--listen", "127.0.0.1:\(port)"])
        #expect(outcome.status == 1)
        #expect(outcome.errors.contains("port \(port) is in use"), "stderr: \(outcome.errors)")
        #expect(outcome.errors.contains("--listen 127.0.0.1:0"))
        #expect(try first.finish() == 0)
    }

    @Test func anUnreachablePeerIsRetriedWithTheReasonShown() throws {
        let dialer = try peer("dialer", ["--connect", "127.0.0.1:1"])
        try dialer.waitForError(containing: "connecting to 127.0.0.1:1 failed (connection refused); retrying in ")
        let peers = try dialer.ask("peers", replyStartingWith: "127.0.0.1:1 ")
        #expect(peers.hasPrefix("127.0.0.1:1 dialed, "))
        _ = try dialer.ask("disconnect 127.0.0.1:1", replyStartingWith: "disconnected from 127.0.0.1:1")
        #expect(try dialer.finish() == 0)
    }

    @Test func aPipedScriptRunsEveryLineReportsBadOnesAndExitsOne() throws {
        let script = """
            add Paris Rome
            delete Atlantis
            drop 1 Ada --delay 200ms
            drop 0 Grace --fail
            lst
            list
            """
        let outcome = try SyncDemoProcess.run(["peer", "--name", "solo"], input: script + "\n")
        #expect(outcome.status == 1)
        #expect(outcome.errors.contains("line 2 'delete Atlantis': no row reads 'Atlantis'"))
        #expect(outcome.errors.contains("line 5 'lst': unknown command 'lst'; did you mean 'list'?"))
        #expect(outcome.errors.contains("2 commands failed"))
        #expect(outcome.errors.contains("built-in demo secret"))
        let lines = outcome.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "peer solo started, not listening (--listen HOST:PORT accepts peers)")
        // Listed while loading: Ada pending or loaded between Paris and Rome, Grace perhaps still pending at the top.
        let list = try #require(lines.first { $0.hasPrefix("solo: ") })
        let rows = list.dropFirst("solo: ".count).components(separatedBy: " | ").filter { !$0.contains("Grace") }
        #expect(rows == ["Paris", "…Ada (loading…)", "Rome"] || rows == ["Paris", "Ada", "Rome"], "\(list)")
        // End of input waits for the loads: one committed, one withdrawn.
        #expect(lines.contains("drop: loaded \"Ada\""))
        #expect(lines.contains("drop: loading Grace failed; its placeholder is withdrawn"))
        #expect(!outcome.output.contains("solo> "))

        // `wait` lets the loads end before the next line; a malformed duration is a failed line.
        let waited = try SyncDemoProcess.run(
            ["peer", "--name", "solo"], input: "add Paris\ndrop 0 Ada --delay 300ms\nwait\nlist\nwait 1x\n")
        #expect(waited.output.contains("solo: Ada | Paris\n"), "\(waited.output)")
        #expect(waited.errors.contains("line 5 'wait 1x': usage: wait [DURATION]"))
        #expect(waited.status == 1)

        let clean = try SyncDemoProcess.run(["peer", "--name", "solo"], input: "add Paris\nlist\nquit\nadd Never\n")
        #expect(clean.status == 0)
        #expect(clean.output.contains("solo: Paris\n"))
        #expect(!clean.output.contains("Never"))
    }

    @Test func anUnreadableOrShortSecretFileFailsWithHowToMakeOne() throws {
        let missing = directory.appendingPathComponent("missing").path
        let unreadable = try SyncDemoProcess.run(["peer", "--name", "a", "--secret-file", missing])
        #expect(unreadable.status == 1)
        #expect(unreadable.errors.contains("cannot read the secret file '\(missing)' (no such file)"))
        #expect(unreadable.errors.contains("head -c 32 /dev/urandom | base64 > secret"))
        let short = directory.appendingPathComponent("short")
        try "tiny\n".write(to: short, atomically: true, encoding: .utf8)
        let tooShort = try SyncDemoProcess.run(["peer", "--name", "a", "--secret-file", short.path])
        #expect(tooShort.status == 1)
        #expect(tooShort.errors.contains("holds 4 bytes; a secret needs at least 16"))
    }

    @Test func helpListsTheOptionsAndCommands() throws {
        let help = try SyncDemoProcess.run(["peer", "--help"])
        #expect(help.status == 0)
        #expect(help.output.hasPrefix("OVERVIEW: "))
        for text in [
            "--listen <host:port>", "--connect <host:port>", "--data <dir>", "--secret-file <file>",
            "disconnect HOST:PORT",
        ] {
            #expect(help.output.contains(text))
        }
    }

    @Test(arguments: [
        (["peer"], "option '--name' is required"),
        (["peer", "--name", "a", "--listen", "nowhere"], "expects HOST:PORT"),
        (["peer", "--name", "a", "--conect", "127.0.0.1:7001"], "did you mean '--connect'?"),
        (["peer", "--name", "a", "--data"], "needs a value"),
        (["peer", "--name", "a", "--listen", "127.0.0.1:0", "--listen", "127.0.0.1:1"], "given twice"),
        (["peer", "--name", "a", "stray"], "unexpected argument 'stray'"),
    ])
    func usageErrorsExitWith64(arguments: [String], message: String) throws {
        try SyncDemoProcess.expectUsageError(arguments, saying: message, help: "syncdemo peer --help")
    }
}
