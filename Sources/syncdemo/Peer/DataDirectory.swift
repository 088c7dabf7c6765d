import Foundation
import ListSyncStore

/// The `--data` directory of `syncdemo peer`: how it is opened (`--recovery`, `--compact-at`), what
/// opening found, and the store's errors worded with this command's options.
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

    /// Opens (or creates) the durable replica in `directory` and prints what opening found on standard error:
    /// the rows it resumed with, and every record recovery cut or salvage dropped.
    /// - Throws: ``CommandFailure`` saying why the directory cannot be used and what to do instead.
    static func open(_ directory: String, _ settings: Settings) throws(CommandFailure) -> DurableReplica<Entry> {
        let options = StoreOptions(recovery: settings.recovery, compactionThreshold: settings.compactionThreshold)
        do {
            let store = try DurableReplica<Entry>(directory: directory, options: options)
            try store.update { $0.enableUndo() }  // records nothing: the history is this run's
            let report = store.recoveryReport
            let rows = store.read { $0.count }
            let records = counted(report.recordsReplayed, "log record")
            let source = (report.snapshotLoaded ? "a snapshot and " : "") + records
            let state = report.created ? "created" : "resumed with \(rows) rows (from \(source))"
            Console.error("replica \(store.replicaID) \(state) in \(directory)")
            for line in reportLines(report) { Console.error(line) }
            return store
        } catch .locked {
            let holder = LockHolder.process(lockingReplicaIn: directory).map { "pid \($0)" } ?? "pid unknown"
            throw CommandFailure(
                "\(directory) is in use by another syncdemo peer (\(holder)); stop that peer, "
                    + "or give this one another --data directory")
        } catch .notAReplica {
            throw CommandFailure(
                "\(directory) is not a replica directory (it holds other files); give --data a new or empty directory")
        } catch {
            throw CommandFailure("cannot open the replica in \(directory): \(explain(error, directory: directory))")
        }
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
