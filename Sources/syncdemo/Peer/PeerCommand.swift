import ListSync
import ListSyncNetwork
import ListSyncStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `syncdemo peer`: one long-running replica that syncs over TCP and reads commands from standard input.
enum PeerCommand: Command {
    /// Options, commands and help.
    static let interface = CommandInterface(
        name: "syncdemo peer",
        overview: "One replica as a long-running TCP peer, driven by commands on standard input.",
        usage: "--name <name> [--listen <host:port>] [--connect <host:port>]... [--discover] [--data <dir>]\n"
            + "                     [--secret-file <file>] [--document <id>] [--doc <id>[=<file>]]...\n"
            + "                     [--library <dir>] [--recovery strict|salvage] [--compact-at <size>]",
        options: [
            Option(
                name: "name", valueName: "name",
                help:
                    "The replica's name, shown at the prompt and by 'list', and to the other peers (at most 64 bytes)."),
            Option(
                name: "listen", valueName: "host:port",
                help: "Accept peers on this address; port 0 picks a free one (printed at start)."),
            Option(
                name: "connect", valueName: "host:port",
                help: "Dial this peer (for every document) and redial with backoff whenever the connection\n"
                    + "drops.", isRepeatable: true),
            Option(
                name: "discover", valueName: nil,
                help: "Advertise this peer on the LAN as --name (multicast DNS, _listsync._tcp) and dial the\n"
                    + "peers of the same document and secret found there. Without --listen, listens on\n"
                    + "0.0.0.0 on a free port."),
            Option(
                name: "data", valueName: "dir",
                help: "Keep the replica in this directory (created on first use): its identity and rows\n"
                    + "survive a restart or a kill -9. Default: in memory."),
            Option(
                name: "secret-file", valueName: "file",
                help: "Read the document's shared secret (16 bytes or more) from this file. Default: a\n"
                    + "built-in demo secret, for local experiments only."),
            Option(
                name: "document", valueName: "id", help: "The document the peers share (default 'syncdemo')."),
            Option(
                name: "doc", valueName: "id[=file]",
                help: "One more document to sync on the same port, with the secret in file (default: the\n"
                    + "first document's secret); in memory, or with --library in it. 'use ID' sends the\n"
                    + "commands that follow to it, 'ID: COMMAND' runs one. --discover finds its peers too.",
                isRepeatable: true),
        ] + DataDirectory.options,
        notes: """
            COMMANDS (one per line on standard input; 'help' lists them):
            \(PeerHelp.help.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))

            Results go to standard output: the first line is 'peer NAME listening on HOST:PORT', then one
            or more lines per command; '<- ...' lines say what a peer's changes did, 'drop: ...' lines
            report loads that ended. Network events and errors go to standard error. On a terminal the
            prompt is 'NAME> ' and edits its line: Left/Right, Home/End, Ctrl-A/Ctrl-E, Alt-B/Alt-F,
            Backspace/Delete, Ctrl-W/Ctrl-U/Ctrl-K, Up/Down for the history, Ctrl-L to redraw, Ctrl-D on
            an empty line to quit; lines printed meanwhile redraw the prompt and the line typed, and the
            terminal's settings are put back on exit, Ctrl-C and other signals. Piped, there is no
            prompt, a failed command is reported with its line number and the rest still run, and the
            exit code is 1 if any command failed. A line ends with LF, CRLF or CR and holds at most
            1 MiB (a longer one is reported and skipped); no row text may hold a control character;
            a DURATION goes from 0 to 1h.

            With --data, the start lines say what opening found: 'replica ... resumed with N rows', and
            a 'recovery: ...' line for each record recovery cut or salvage dropped.

            EXAMPLE (two terminals):
              syncdemo peer --name phone --listen 127.0.0.1:7001 --data /tmp/phone
              syncdemo peer --name laptop --connect 127.0.0.1:7001

            EXAMPLE (two machines on one LAN, the same --secret-file):
              syncdemo peer --name kitchen --discover --secret-file secret
              syncdemo peer --name pantry --discover --secret-file secret
            """)

    /// Opens the replica, listens and dials, then reads commands until `quit` or the end of input.
    /// - Throws: ``UsageError`` for a missing `--name` or a bad value (exit 64); ``CommandFailure`` for a
    ///   secret file, data directory or listening address that cannot be used (exit 1).
    static func run(_ arguments: ParsedArguments) throws -> ExitCode {
        guard let name = arguments.string("name"), !name.isEmpty else {
            throw arguments.error("option '--name' is required: --name <name>, e.g. --name phone")
        }
        if let (scalar, _) = name.firstControlCharacter {
            throw arguments.error(
                "option '--name' cannot hold control characters; \(name.quoted) holds \(scalar.codePoint)")
        }
        guard name.utf8.count <= Presence.Limits.nameByteCount else {
            throw arguments.error(
                "option '--name' takes at most \(Presence.Limits.nameByteCount) bytes of UTF-8 (the other peers "
                    + "see it), not \(name.utf8.count)")
        }
        let discover = arguments.flag("discover")
        let listen =
            try arguments.endpoints("listen", dialing: false).first
            ?? (discover ? Endpoint(host: "0.0.0.0", port: 0) : nil)
        let dials = try arguments.endpoints("connect", dialing: true)
        let settings = try DataDirectory.settings(arguments)
        let document = arguments.string("document") ?? "syncdemo"
        guard document.utf8.count <= 255 else { throw arguments.error("option '--document' takes at most 255 bytes") }
        let secret: [UInt8]
        if let path = arguments.string("secret-file") {
            secret = try PeerSecret.read(path: path)
        } else {
            Console.error(PeerSecret.demoWarning)
            secret = PeerSecret.demo
        }
        let more = try arguments.strings("doc").map { value throws in try furtherDocument(value, secret, arguments) }
        var ids: Set<String> = []
        for id in [document] + more.map(\.documentName) where !ids.insert(id).inserted {
            throw arguments.error("the document \(id.quoted) is given twice (--document and --doc name one each)")
        }
        let data = arguments.string("data")
        let libraryPath = arguments.string("library")
        if data != nil, libraryPath != nil {
            throw arguments.error("--data keeps one document and --library keeps many; give one of them")
        }
        if data != nil, !more.isEmpty {
            throw arguments.error(
                "--data keeps one document; with --doc, keep every document with --library DIR (or drop --data "
                    + "to keep them in memory)")
        }
        let output = PeerOutput(name: name)
        var library: DocumentLibrary<Entry>?
        var stores: [DurableReplica<Entry>] = []
        if let data {
            stores = [try DataDirectory.open(data, settings)]
        } else if let libraryPath {
            (library, stores) = try DataDirectory.open(
                [document] + more.map(\.documentName), inLibrary: libraryPath, settings)
        }
        var configuration = PeerConfiguration(sync: SyncSettings(document: document, secret: secret))
        configuration.reconnectMaximumDelay = .seconds(5)  // a restarted peer is found again within 5 s
        if discover { configuration.discovery = PeerDiscovery(instanceName: name) }
        let log = PeerLog(output: output)
        configuration.log = { log.write($0) }
        let options = Options(name: name, listen: listen, dials: dials, configuration: configuration, output: output)
        if let first = stores.first {
            // The library stays locked while the peer runs, so no other process changes its documents.
            return try withExtendedLifetime(library) {
                try serve(first, more: Array(zip(more, stores.dropFirst())), stores: stores, options)
            }
        }
        let replicaID = ReplicaID.random()
        let lists = (0...more.count).map { _ in
            let list = ReplicatedList<Entry>(replicaID: replicaID)
            list.enableUndo()
            return list
        }
        return try serve(lists[0], more: Array(zip(more, lists.dropFirst())), stores: [], options)
    }

    /// The settings of the document `value` of `--doc` names: `ID` (with the first document's
    /// `secret`) or `ID=FILE` (with the secret in FILE).
    /// - Throws: ``UsageError`` for an empty, too long or control-character ID; ``CommandFailure`` for a
    ///   secret file that cannot be used.
    private static func furtherDocument(
        _ value: String, _ secret: [UInt8], _ arguments: ParsedArguments
    ) throws -> SyncSettings {
        let (id, path) =
            value.firstIndex(of: "=").map { (String(value[..<$0]), Optional(String(value[value.index(after: $0)...]))) }
            ?? (value, nil)
        guard !id.isEmpty, id.utf8.count <= 255, id.firstControlCharacter == nil else {
            throw arguments.error(
                "option '--doc' takes a document ID of 1 to 255 bytes without control characters, then "
                    + "optionally =SECRETFILE (e.g. --doc chores=chores.secret), not \(value.quoted)")
        }
        return SyncSettings(document: id, secret: try path.map(PeerSecret.read) ?? secret)
    }

    /// What ``serve(_:store:_:)`` needs besides the replica.
    private struct Options {
        let name: String
        let listen: Endpoint?
        let dials: [Endpoint]
        let configuration: PeerConfiguration
        let output: PeerOutput
    }

    /// Serves `replica` and the documents `more` (kept in `stores`, one each in that order, or in memory
    /// when empty) until the prompt ends.
    private static func serve<Replica: SyncReplica>(
        _ replica: Replica, more: [(SyncSettings, Replica)], stores: [DurableReplica<Entry>], _ options: Options
    ) throws -> ExitCode where Replica.Value == Entry {
        let peer: SyncPeer<Replica>
        do {
            peer = try SyncPeer(replica: replica, configuration: options.configuration)
            // The IDs were checked to differ.
            for (settings, replica) in more { _ = try peer.addDocument(replica, settings: settings) }
        } catch {
            throw CommandFailure("could not start the peer: \(error)")
        }
        // Within the limits: --name was checked.
        for document in peer.documents { try? document.setPresence(Presence(name: options.name)) }
        let session = PeerSession(name: options.name, peer: peer, stores: stores, output: options.output)
        if let listen = options.listen {
            do {
                options.output.result("peer \(options.name) listening on \(try peer.listen(on: listen))")
            } catch {
                try? session.finish()
                throw listenFailure(listen, error)
            }
        } else {
            options.output.result("peer \(options.name) started, not listening (--listen HOST:PORT accepts peers)")
        }
        for endpoint in options.dials {
            for document in peer.documents { try? document.connect(to: endpoint) }
        }
        return PeerPrompt(session: session, output: options.output).run()
    }

    /// Why listening on `endpoint` failed, and what to try instead.
    private static func listenFailure(_ endpoint: Endpoint, _ error: SocketError) -> CommandFailure {
        let other = Endpoint(host: endpoint.host, port: endpoint.port == .max ? 1024 : endpoint.port + 1)
        let free = Endpoint(host: endpoint.host, port: 0)
        switch error.errno {
        case EADDRINUSE:
            return CommandFailure(
                "cannot listen on \(endpoint): port \(endpoint.port) is in use by another process; "
                    + "choose another port (--listen \(other)) or let the system pick one (--listen \(free))")
        case EADDRNOTAVAIL:
            return CommandFailure(
                "cannot listen on \(endpoint): \(endpoint.host) is not an address of this machine; "
                    + "use 127.0.0.1, 0.0.0.0 or one of its own addresses")
        case EACCES:
            return CommandFailure(
                "cannot listen on \(endpoint): ports below 1024 need privileges; choose a port from 1024 up")
        default:
            return CommandFailure("cannot listen on \(endpoint): \(error)")
        }
    }
}
