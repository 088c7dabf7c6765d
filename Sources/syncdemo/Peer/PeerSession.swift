import Dispatch
import Foundation
import ListSync
import ListSyncNetwork
import ListSyncStore
import Synchronization

/// The commands of `syncdemo peer` beyond the list commands, for help and suggestions.
enum PeerHelp {
    /// The words of the peer's own commands, for help and suggestions.
    static let verbs = ["list", "peers", "connect", "disconnect", "status", "use", "wait", "help", "quit", "exit"]

    /// One line per command, for `help`.
    static let help =
        ListCommand.help + "\n" + PresenceCommand.help + "\n" + """
            list                            show the rows (pending placeholders marked with …, rows others
                                            select or drag followed by ◂ and their names)
            peers                           show connections: address, how it was found, state, replica;
                                            then who is here: each replica's name, selection and drag
            connect HOST:PORT               dial a peer for this document and keep the connection open
            disconnect HOST:PORT            stop dialing a peer (for every document) and close the connections
            status                          replica ID, version vector, rows, placeholders, traffic
            use DOCUMENT                    send the commands that follow to DOCUMENT (--document or --doc)
            DOCUMENT: COMMAND               run one command on DOCUMENT, e.g. chores: add sweep
            wait [DURATION]                 wait for running drop loads to end, then DURATION more (up to 1h)
                                            (scripts: let peers' changes arrive before the next line)
            help                            show this help
            quit, exit                      say what it waits for, wait for running loads, close the
                                            connections and the data directory, then exit (end of input
                                            and Ctrl-D do the same)
            """
}

/// A running `syncdemo peer`: its ``SyncPeer`` (over lists in memory or stores) with its documents,
/// and the commands typed at it, each run on the current document (`use`) or the one it names.
///
/// Every method may be called from any thread; drop loads run as tasks and finish on their own.
final class PeerSession<Replica: SyncReplica>: Sendable where Replica.Value == Entry {
    /// What a command asks of the prompt.
    enum Reply: Equatable {
        /// Print these lines and read the next command.
        case lines([String])
        /// Stop reading commands.
        case quit
    }

    /// The peer's name, for `list`.
    let name: String
    /// The network peer serving the replicas.
    let peer: SyncPeer<Replica>
    /// The documents the peer syncs, `--document` first, then each `--doc` in order.
    private let documents: [SyncDocument<Replica>]
    /// The index in ``documents`` of the one commands go to.
    private let current = Mutex(0)
    /// The durable store behind each document's replica, in the order of ``documents``, closed by
    /// ``finish()``; empty when in memory.
    private let stores: [DurableReplica<Entry>]
    /// Where announcements go.
    private let output: PeerOutput
    /// The drop loads still running.
    private let loads = DispatchGroup()
    /// How many drop loads are running, for ``finishingNote``.
    private let runningLoads = Atomic(0)

    /// A session of `peer`'s documents, kept in `stores` (one per document, in the peer's order; none:
    /// in memory); announces on `output` every change peers bring.
    init(name: String, peer: SyncPeer<Replica>, stores: [DurableReplica<Entry>], output: PeerOutput) {
        self.name = name
        self.peer = peer
        self.stores = stores
        self.output = output
        documents = peer.documents
        for document in documents {
            // Documents are only removed by this session, which removes none.
            guard let events = try? document.changeEvents() else { continue }
            let prefix = documents.count > 1 ? "[\(document.settings.documentName)] " : ""
            Task.detached {
                var rows = events.initialRows  // the rows before each event, to name those it moves or removes
                for await event in events {
                    if case .remote(let peers) = event.origin {
                        let by =
                            peers.isEmpty
                            ? "a peer" : "replica " + peers.map { "\($0)" }.sorted().joined(separator: ", ")
                        output.announce(prefix + ChangeAnnouncement.line(for: event, before: rows, by: by))
                    }
                    event.apply(to: &rows)
                }
            }
        }
    }

    /// Runs the command `words` (the verb first, or a `DOCUMENT:` word then the verb).
    /// - Throws: ``CommandError`` for a command that cannot run as written (nothing changed), or
    ///   ``StoreError`` when an edit could not be logged.
    func execute(_ words: [String]) throws -> Reply {
        guard let first = words.first, first.hasSuffix(":"), first.count > 1 else {
            return try execute(words, on: documents[current.withLock { $0 }])
        }
        let document = try self.document(named: String(first.dropLast()))
        guard words.count > 1 else {
            throw CommandError("usage: \(first) COMMAND, e.g. \(first) list; or 'use \(first.dropLast())'")
        }
        return try execute(Array(words.dropFirst()), on: documents[document])
    }

    /// Runs the command `words` (the verb first) on `document`.
    private func execute(_ words: [String], on document: SyncDocument<Replica>) throws -> Reply {
        if let command = try ListCommand.parse(words) { return .lines([try edit(command, on: document)]) }
        if let command = try PresenceCommand.parse(words) { return .lines([try show(command, on: document)]) }
        let arguments = Array(words.dropFirst())
        switch words.first {
        case "list":
            let marks = PresenceCommand.marks(document.presences.values)
            let column = label(of: document)
            return .lines([
                try document.read { ListDisplay.render([ListDisplay.Column(name: column, list: $0, marks: marks)]) }
            ])
        case "peers": return .lines(try peersReport(document))
        case "status": return .lines(try statusReport(document))
        case "use":
            guard arguments.count == 1 else { throw CommandError("usage: use DOCUMENT; the documents: \(names)") }
            let index = try self.document(named: arguments[0])
            current.withLock { $0 = index }
            output.setDocument(documents.count > 1 ? documents[index].settings.documentName : nil)
            return .lines(["commands go to \(arguments[0].quoted) now"])
        case "connect":
            let endpoint = try Self.endpoint("connect", arguments)
            try document.connect(to: endpoint)
            return .lines(["dialing \(endpoint); the connection is kept open and redialed when it drops"])
        case "disconnect":
            let endpoint = try Self.endpoint("disconnect", arguments)
            guard peer.connections.contains(where: { $0.isDialed && $0.remote == endpoint }) else {
                throw CommandError(
                    "not dialing \(endpoint): disconnect takes an address given to connect or --connect (see peers)")
            }
            peer.disconnect(from: endpoint)
            return .lines(["disconnected from \(endpoint)"])
        case "wait":
            guard arguments.count <= 1 else { throw CommandError("usage: wait [DURATION], e.g. wait 2s or wait 500ms") }
            let duration: Duration
            do {
                duration = try arguments.first.map(Duration.init(validating:)) ?? .zero
            } catch {
                throw CommandError("usage: wait [DURATION]: \(error)")
            }
            loads.wait()
            Thread.sleep(forTimeInterval: Double(duration / .milliseconds(1)) / 1000)
            return .lines([])
        case "help": return .lines([PeerHelp.help])
        case "quit", "exit": return .quit
        default:
            let verb = words.first ?? ""
            let hint = Suggestion.nearest(to: verb, among: ListCommand.verbs + PresenceCommand.verbs + PeerHelp.verbs)
                .map {
                    "did you mean '\($0)'?"
                }
            throw CommandError("unknown command \(verb.quoted); " + (hint ?? "type 'help' for the commands"))
        }
    }

    /// What ``finish()`` is about to wait for and do, for the user who typed `quit`:
    /// `quitting: waiting for 2 drop loads to end, then closing 1 connection, then saving a snapshot of /tmp/phone`.
    var finishingNote: String {
        let running = runningLoads.load(ordering: .sequentiallyConsistent)
        let connections = peer.connections.count
        let steps = [
            running > 0 ? "waiting for \(counted(running, "drop load")) to end" : nil,
            connections > 0 ? "closing \(counted(connections, "connection"))" : nil,
            stores.isEmpty ? nil : "saving a snapshot of " + stores.map(\.directory).joined(separator: ", "),
        ].compactMap { $0 }
        return "quitting: " + (steps.isEmpty ? "nothing to wait for" : steps.joined(separator: ", then "))
    }

    /// Waits for running loads, stops the peer (closing its connections), compacts each store (so the
    /// next start loads a snapshot instead of replaying the log) and closes it.
    /// - Throws: the first ``StoreError`` of a store that could not be compacted or closed cleanly, after
    ///   trying every store (its data is safe either way: compaction replaces the log only once the
    ///   snapshot is durable).
    func finish() throws {
        loads.wait()
        peer.stop()
        var failure: StoreError?
        for store in stores {
            do throws(StoreError) {
                try store.compactAndClose()
            } catch {
                failure = failure ?? error
            }
        }
        if let failure { throw failure }
    }

    /// The message for `error` of a command or of closing: a store error worded for this command's options.
    func describe(_ error: any Error) -> String {
        let current = current.withLock { $0 }
        guard let error = error as? StoreError, current < stores.count else { return "\(error)" }
        return DataDirectory.explain(error, directory: stores[current].directory)
    }

    /// The documents' IDs, quoted, for error messages.
    private var names: String { documents.map(\.settings.documentName.quoted).joined(separator: ", ") }

    /// The index in ``documents`` of the document with the ID `name`.
    /// - Throws: ``CommandError`` naming the documents when there is none.
    private func document(named name: String) throws(CommandError) -> Int {
        guard let index = documents.firstIndex(where: { $0.settings.documentName == name }) else {
            throw CommandError("no document \(name.quoted) on this peer; the documents: \(names)")
        }
        return index
    }

    /// `phone`, or `phone[chores]` when the peer syncs several documents: the name `list` shows.
    private func label(of document: SyncDocument<Replica>) -> String {
        documents.count > 1 ? "\(name)[\(document.settings.documentName)]" : name
    }

    /// Applies a list command to `document` (logged before it returns when durable), starts the loads a
    /// drop left pending, and says what changed.
    private func edit(_ command: ListCommand, on document: SyncDocument<Replica>) throws -> String {
        let outcome = try document.edit { list in try list.run(command) }
        for load in outcome.loads { finishInBackground(load, in: document) }
        guard outcome.loads.isEmpty else {
            return "ok: \(counted(outcome.loads.count, "pending placeholder")) inserted; loading…"
        }
        return "ok: \(outcome.change.summary)" + outcome.notes.map { "; \($0)" }.joined()
    }

    /// Changes what this peer shows the others of `document`, and says what it shows now.
    private func show(_ command: PresenceCommand, on document: SyncDocument<Replica>) throws -> String {
        let current = document.ownPresence ?? Presence(name: name)
        let presence = try document.read { list in try command.applied(to: current, in: list) }
        try document.setPresence(presence)
        return command.summary(of: presence)
    }

    /// Loads a dropped item in a task, then commits or withdraws its placeholder in `document` and
    /// announces it.
    private func finishInBackground(_ load: DropResult<Entry>.PendingLoad, in document: SyncDocument<Replica>) {
        loads.enter()
        runningLoads.add(1, ordering: .sequentiallyConsistent)
        Task.detached { [self, output, loads] in
            defer {
                self.runningLoads.subtract(1, ordering: .sequentiallyConsistent)
                loads.leave()
            }
            let result = await load.loadValue()
            do {
                let line = try document.edit { list in "drop: " + list.land(load.placeholder, with: result).report }
                output.announce(line)
            } catch {
                output.log("drop: the loaded row could not be stored: \(self.describe(error))")
            }
        }
    }

    /// `peers`: one line per connection or dialed endpoint, then one per replica present in `document`.
    private func peersReport(_ document: SyncDocument<Replica>) throws -> [String] {
        let connections = peer.connections
        guard !connections.isEmpty else { return ["no peers; 'connect HOST:PORT' dials one"] }
        return connectionsReport(connections) + (try presenceReport(document))
    }

    /// `here: replica 5e0f…: "laptop" selects "Paris"`, one line per replica present in `document`, by
    /// replica ID.
    private func presenceReport(_ document: SyncDocument<Replica>) throws -> [String] {
        let presences = document.presences
        return try document.read { list in
            presences.sorted { $0.key < $1.key }.map { replica, presence in
                "here: replica \(replica): " + PresenceCommand.describe(presence, in: list)
            }
        }
    }

    /// One line per connection or dialed endpoint.
    private func connectionsReport(_ connections: [PeerConnection]) -> [String] {
        connections.map { connection in
            let state =
                switch connection.state {
                case .live: "live"
                case .handshaking: "handshaking"
                case .connecting: "connecting"
                case .waiting(let delay): "not connected, next attempt in \(delay.secondsText)"
                case .stopped: "not dialed any more (it is this peer)"
                }
            let replica = connection.replica.map { ", replica \($0)" } ?? ""
            let failure = connection.lastError.map { "; last error \($0.code): \($0)" } ?? ""
            let origin =
                connection.discoveredAs.map { "found by mDNS (\($0))" } ?? (connection.isDialed ? "dialed" : "accepted")
            let document = documents.count > 1 ? connection.document.map { " [\($0)]" } ?? "" : ""
            return "\(connection.remote)\(document) \(origin), \(state)\(replica)\(failure)"
        }
    }

    /// One line per listener: where it listens, or that it waits to listen again and why.
    private func listenersReport() -> [String] {
        peer.listeners.map { listener in
            switch listener.state {
            case .listening: "listening on \(listener.endpoint)"
            case .waiting(let delay):
                "not listening on \(listener.endpoint) (torn down"
                    + (listener.lastError.map { ": \($0)" } ?? "") + "); listening again in \(delay.secondsText)"
            }
        }
    }

    /// `status`: `document`'s identity, storage, version vector, rows and traffic, then the listeners.
    private func statusReport(_ document: SyncDocument<Replica>) throws -> [String] {
        let (replica, vector, rows, pending) = try document.read { list in
            (list.replicaID, list.versionVector, list.count - list.pendingCount, list.pendingCount)
        }
        let statistics = document.statistics
        let connections = peer.connections.filter {
            documents.count == 1 || $0.document == document.settings.documentName
        }
        let live = connections.count { $0.state == .live }
        let store = zip(documents, stores).first { $0.0.settings.document == document.settings.document }?.1
        return (documents.count > 1 ? ["document: \(document.settings.documentName.quoted)"] : []) + [
            "replica: \(replica)",
            "storage: "
                + (store.map { "durable in \($0.directory)" }
                    ?? "in memory (gone when this peer exits)"),
            "version vector: \(vector)",
            "rows: \(rows), pending placeholders: \(pending)",
            "sent: \(statistics.bytesSent.formatted()) bytes in \(counted(statistics.changeSetsSent, "change set"))",
            "received: \(statistics.bytesReceived.formatted()) bytes in "
                + "\(counted(statistics.changeSetsReceived, "change set")) "
                + "(\(statistics.changeSetsApplied) applied, \(statistics.duplicateChangeSets) already seen)",
            "peers: \(live) live of \(connections.count)",
        ]
            + listenersReport()
            + connections.compactMap { connection in
                connection.lastError.map { "  \(connection.remote): last error \($0.code) \($0)" }
            }
    }

    /// The endpoint argument of `connect` or `disconnect`.
    private static func endpoint(_ verb: String, _ arguments: [String]) throws(CommandError) -> Endpoint {
        guard arguments.count == 1 else {
            throw CommandError("usage: \(verb) HOST:PORT, e.g. 127.0.0.1:7001, [::1]:7001 or phone.local:7001")
        }
        let endpoint: Endpoint
        do {
            endpoint = try Endpoint(parsing: arguments[0])
        } catch {
            throw CommandError("\(verb): \(error)")
        }
        guard endpoint.port != 0 else { throw CommandError("\(verb): \(Endpoint.portZeroDialed)") }
        return endpoint
    }
}

/// `1 row`, `2 rows`: `count` and `noun`, plural unless `count` is 1.
func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

extension ListChange {
    /// `2 inserted, 1 moved`, or `no change`.
    var summary: String {
        let parts = [
            (inserted.count, "inserted"), (moved.count, "moved"), (removed.count, "removed"),
            (updated.count, "updated"),
        ]
        .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        return parts.isEmpty ? "no change" : parts.joined(separator: ", ")
    }
}

extension Duration {
    /// `1.2 s`, to a tenth of a second.
    var secondsText: String {
        let tenths = (Double(self / .milliseconds(1)) / 100).rounded()
        return "\(tenths / 10) s"
    }
}
