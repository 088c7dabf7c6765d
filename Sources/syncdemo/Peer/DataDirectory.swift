import Foundation
import ListSyncStore

/// The `--data` directory or `--library` of `syncdemo peer`: how they are opened (`--recovery`,
/// `--compact-at`), what opening found, and the store's errors worded with this command's options.
enum DataDirectory {
    /// The sizes `--compact-at` accepts.
    static let compactionThresholds = (64 << 10)...(1 << 30)

    /// How the directory is opened.
    struct Settings {
        /// What opening does about damage before the end of the log.
        var recovery: RecoveryMode
        /// The log size, in bytes, at which the store compacts.
        var compactionThreshold: Int
    }

    /// The options of `syncdemo peer` this type reads.
    static let options = [
        Option(
            name: "recovery", valueName: "strict|salvage",
            help: "What opening --data does about damage before the end of its log: strict (default)\n"
                + "stops and changes nothing; salvage keeps what precedes the damage and drops the\n"
                + "damaged record and everything logged after it (peers send their copies again)."),
        Option(
            name: "library", valueName: "dir",
            help: "Keep every document (--document and each --doc) in this directory, one store each\n"
                + "(created on first use; a document not there yet is created). Anything in it that\n"
                + "syncdemo did not write is kept as it is and reported at start."),
        Option(
            name: "compact-at", valueName: "size",
            help: "Compact --data (a snapshot replaces the log) once the log holds this much and a\n"
                + "quarter of the snapshot, 64KiB to 1GiB (default "
                + "\(ByteSize.format(StoreOptions.defaultCompactionThreshold))); a clean quit always compacts."
        ),
    ]

    /// The settings `arguments` give.
    /// - Throws: ``UsageError`` for a recovery mode that does not exist or a size out of range.
    static func settings(_ arguments: ParsedArguments) throws(UsageError) -> Settings {
        let recovery: RecoveryMode
        switch arguments.string("recovery") {
        case nil, "strict": recovery = .strict
        case "salvage": recovery = .salvage
        case let text?: throw arguments.error("option '--recovery' expects strict or salvage, got \(text.quoted)")
        }
        let threshold = try arguments.size(
            "compact-at", default: StoreOptions.defaultCompactionThreshold, in: compactionThresholds)
        return Settings(recovery: recovery, compactionThreshold: threshold)
    }

    /// How the stores are opened.
    private static func storeOptions(_ settings: Settings) -> StoreOptions {
        StoreOptions(recovery: settings.recovery, compactionThreshold: settings.compactionThreshold)
    }

    /// Opens (or creates) the durable replica in `directory` and prints what opening found on standard error:
    /// the rows it resumed with, and every record recovery cut or salvage dropped.
    /// - Throws: ``CommandFailure`` saying why the directory cannot be used and what to do instead.
    static func open(_ directory: String, _ settings: Settings) throws(CommandFailure) -> DurableReplica<Entry> {
        do {
            return try prepare(
                DurableReplica<Entry>(directory: directory, options: storeOptions(settings)), in: directory)
        } catch .locked {
            throw inUse(directory, option: "--data")
        } catch .notAReplica {
            throw CommandFailure(
                "\(directory) is not a replica directory (it holds other files); give --data a new or empty directory")
        } catch {
            throw CommandFailure("cannot open the replica in \(directory): \(explain(error, directory: directory))")
        }
    }

    /// Opens (or creates) the document library in `path`, and in it the store of each document of `ids`
    /// (creating those it does not hold); prints what opening found, and every entry of the library it
    /// could not read (kept as it is).
    /// - Throws: ``CommandFailure`` saying why the library or a document cannot be used.
    static func open(
        _ ids: [String], inLibrary path: String, _ settings: Settings
    ) throws(CommandFailure) -> (DocumentLibrary<Entry>, [DurableReplica<Entry>]) {
        do {
            let library = try DocumentLibrary<Entry>(directory: path, options: storeOptions(settings))
            for entry in try library.unreadable { Console.error("library: \(entry); kept as it is") }
            let existing = try library.documentIDs
            for id in existing where !ids.contains(id) {
                Console.error("library: holds \(id.quoted) too, not synced now (--doc \(id.quoted) syncs it)")
            }
            let stores = try ids.map { id throws(StoreError) in
                let store = try existing.contains(id) ? library.open(id) : library.create(id)
                return try prepare(store, in: "document \(id.quoted) of \(path) (\(store.directory))")
            }
            return (library, stores)
        } catch .locked(let locked) where locked == path {
            throw inUse(path, option: "--library")
        } catch .notALibrary {
            throw CommandFailure(
                "\(path) is not a document library (it holds other files); give --library a new or empty directory")
        } catch {
            throw CommandFailure("cannot open the library in \(path): \(explain(error, directory: path))")
        }
    }

    /// Enables undo on `store` and prints what opening it found, naming it `place`.
    private static func prepare(
        _ store: DurableReplica<Entry>, in place: String
    ) throws(StoreError) -> DurableReplica<Entry> {
        try store.update { $0.enableUndo() }  // records nothing: the history is this run's
        let report = store.recoveryReport
        let rows = store.read { $0.count }
        let records = counted(report.recordsReplayed, "log record")
        let source = (report.snapshotLoaded ? "a snapshot and " : "") + records
        let state = report.created ? "created" : "resumed with \(rows) rows (from \(source))"
        Console.error("replica \(store.replicaID) \(state) in \(place)")
        for line in reportLines(report) { Console.error(line) }
        return store
    }

    /// The error for `directory`, given to `option`, locked by another process.
    private static func inUse(_ directory: String, option: String) -> CommandFailure {
        let holder = LockHolder.process(lockingReplicaIn: directory).map { "pid \($0)" } ?? "pid unknown"
        return CommandFailure(
            "\(directory) is in use by another syncdemo peer (\(holder)); stop that peer, "
                + "or give this one another \(option) directory")
    }

    /// One `recovery: ...` line per record recovery cut or salvage dropped; none when the open was clean.
    static func reportLines(_ report: RecoveryReport) -> [String] {
        let peers = "peers that hold those changes send them again when they connect"
        let torn = report.tornTails.map { tail in
            "recovery: cut a torn last record of \(tail.path) at byte \(tail.offset): "
                + "\(tail.droppedBytes.formatted()) bytes dropped (\(tail.reason)); \(peers)"
        }
        let salvaged = report.salvaged.map { "recovery: salvaged \($0); \(peers)" }
        return torn + salvaged
    }

    /// `error` worded for `syncdemo peer`: its advice names only options this command has.
    static func explain(_ error: StoreError, directory: String) -> String {
        switch error {
        case .corrupt(let path, let offset, let reason):
            "\(path) is damaged at byte \(offset) (\(reason)); nothing was changed. To open the replica with "
                + "what precedes the damage, rerun with --recovery salvage: it moves the damaged file and every "
                + "later log segment aside in \(directory), deleting nothing"
        case .failedEarlier(let cause):
            "an earlier write failed (\(cause)), so this peer no longer saves changes; quit and start it again "
                + "with the same --data directory"
        default:
            "\(error)"
        }
    }
}
