import Dispatch
import Foundation
import ListSync
import ListSyncStore

/// Measures ListSyncStore: commits per second under each commit policy, the time to open a large
/// replica (snapshot plus log) and a move-heavy one (100,000 rows, 100,000 move records), and snapshot
/// bytes per row; prints one JSON object on stdout.
enum StoreBenchmark {
    /// Command-line settings.
    private struct Settings {
        /// Rows in the replica whose open time is measured.
        var rows = 1_000_000
        /// Log records on top of its snapshot.
        var records = 100_000
        /// Commits timed per policy.
        var commits = 2_000
        /// Where the replicas are made (a fresh temporary directory by default).
        var directory = FileManager.default.temporaryDirectory.path + "/listsync-store-bench-\(getpid())"
        /// Whether the replicas are kept after the run (a directory was given).
        var keeps = false
        /// An existing replica to time the open of, instead of every measurement.
        var open: String?
        /// Opens timed with `open`.
        var repeats = 5
    }

    /// The usage text of `listsync-bench store`.
    static let usage = """
        OVERVIEW: Durable storage benchmark; prints one JSON object.

        USAGE: listsync-bench store [--rows <n>] [--records <n>] [--commits <n>] [--directory <path>]
               listsync-bench store --open <path> [--repeat <n>]

        OPTIONS:
          --rows <n>         Rows in the replica whose open time is measured (default 1000000).
          --records <n>      Log records on top of its snapshot (default 100000).
          --commits <n>      Commits timed per commit policy (default 2000).
          --directory <path> Where to create the replicas, which are then kept (<path>/large is the
                             1,000,000-row one); default: a new temporary directory, removed after.
          --open <path>      Only time opening the existing replica at <path>, --repeat times.
          --repeat <n>       Opens timed with --open (default 5).
          -h, --help         Show this help.

        """

    /// Parses `arguments` (after `store`), runs every measurement and prints the JSON object.
    static func run(arguments: ArraySlice<String>) {
        guard let settings = parse(arguments) else {
            FileHandle.standardError.write(Data(usage.utf8))
            exit(arguments.contains { $0 == "-h" || $0 == "--help" } ? 0 : 64)
        }
        do {
            if let path = settings.open {
                print(try measureOpen(of: path, repeats: settings.repeats))
                return
            }
            try FileManager.default.createDirectory(atPath: settings.directory, withIntermediateDirectories: true)
            defer { if !settings.keeps { try? FileManager.default.removeItem(atPath: settings.directory) } }
            print(try measureAll(settings))
        } catch {
            FileHandle.standardError.write(Data("store benchmark failed: \(error)\n".utf8))
            exit(1)
        }
    }

    private static func parse(_ arguments: ArraySlice<String>) -> Settings? {
        var settings = Settings()
        var remaining = arguments
        while let option = remaining.popFirst() {
            guard let value = remaining.popFirst() else { return nil }
            switch option {
            case "--rows": settings.rows = Int(value) ?? -1
            case "--records": settings.records = Int(value) ?? -1
            case "--commits": settings.commits = Int(value) ?? -1
            case "--directory": (settings.directory, settings.keeps) = (value, true)
            case "--open": settings.open = value
            case "--repeat": settings.repeats = Int(value) ?? -1
            default: return nil
            }
        }
        let counts = [settings.rows, settings.records, settings.commits, settings.repeats]
        return counts.allSatisfy { $0 > 0 } ? settings : nil
    }

    private static func measureAll(_ settings: Settings) throws -> String {
        let always = try commitsPerSecond(.always, settings: settings, name: "always")
        let batched = try commitsPerSecond(.batched(.milliseconds(5)), settings: settings, name: "batched")
        let large = settings.directory + "/large"
        let snapshotBytes = try buildLargeReplica(at: large, settings: settings)
        let (largeTimes, rowCount) = try openTimes(of: large)
        // The same 100,000 moves with the default compaction threshold, and with none (all in the log).
        let moveHeavy = settings.directory + "/move-heavy"
        let moveHeavyLogBytes = try buildMoveHeavyReplica(
            at: moveHeavy, rows: moveHeavyRows, records: moveHeavyRows, compactionThreshold: nil)
        let (moveHeavyTimes, _) = try openTimes(of: moveHeavy)
        let compacting = settings.directory + "/move-heavy-compacting"
        let compactingLogBytes = try buildMoveHeavyReplica(
            at: compacting, rows: moveHeavyRows, records: moveHeavyRows,
            compactionThreshold: StoreOptions.defaultCompactionThreshold)
        let (compactingTimes, _) = try openTimes(of: compacting)
        // The worst case of the default: the longest log it leaves, just short of a quarter of the snapshot.
        let longest = settings.directory + "/move-heavy-longest"
        let longestLogBytes = try buildMoveHeavyReplica(
            at: longest, rows: moveHeavyRows, records: moveHeavyRows, compactionThreshold: nil,
            stoppingBeforeAQuarterOfTheSnapshot: true)
        let (longestTimes, _) = try openTimes(of: longest)
        let fields = [
            "\"bench\":\"store\"",
            "\"commits_per_s_always\":\(format(always))",
            "\"commits_per_s_batched_5ms\":\(format(batched))",
            "\"open_ms\":\(format(largeTimes[1]))",
            "\"open_ms_min\":\(format(largeTimes[0]))",
            "\"open_ms_max\":\(format(largeTimes[2]))",
            "\"open_ms_move_heavy\":\(format(moveHeavyTimes[1]))",
            "\"move_heavy_rows\":\(moveHeavyRows)",
            "\"move_heavy_records\":\(moveHeavyRows)",
            "\"move_heavy_log_bytes\":\(moveHeavyLogBytes)",
            "\"open_ms_move_heavy_default_compaction\":\(format(compactingTimes[1]))",
            "\"move_heavy_default_compaction_log_bytes\":\(compactingLogBytes)",
            "\"open_ms_move_heavy_longest_default_log\":\(format(longestTimes[1]))",
            "\"move_heavy_longest_default_log_bytes\":\(longestLogBytes)",
            "\"snapshot_bytes_per_row\":\(format(Double(snapshotBytes) / Double(settings.rows)))",
            "\"rows\":\(settings.rows)",
            "\"visible_rows\":\(rowCount)",
            "\"records\":\(settings.records)",
            "\"commits\":\(settings.commits)",
        ]
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// Rows in the snapshot of the move-heavy replica, and local move records in its log.
    private static let moveHeavyRows = 100_000

    /// Opens the replica at `path` `repeats` times; returns the open times' median, minimum and maximum.
    private static func measureOpen(of path: String, repeats: Int) throws -> String {
        let (times, rowCount) = try openTimes(of: path, repeats: repeats)
        let fields = [
            "\"bench\":\"store-open\"", "\"open_ms\":\(format(times[times.count / 2]))",
            "\"open_ms_min\":\(format(times[0]))", "\"open_ms_max\":\(format(times[times.count - 1]))",
            "\"visible_rows\":\(rowCount)", "\"opens\":\(repeats)",
        ]
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// Opens the replica at `path` `repeats` times; returns the sorted open times in ms and its row count.
    private static func openTimes(of path: String, repeats: Int = 3) throws -> ([Double], Int) {
        var times: [Double] = []
        var rowCount = 0
        for _ in 0..<repeats {
            let start = DispatchTime.now().uptimeNanoseconds
            let store = try DurableReplica<String>(directory: path)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            rowCount = store.read { $0.count }
            try store.close()
        }
        return (times.sorted(), rowCount)
    }

    /// Builds a replica of `rows` rows in a snapshot, then `records` local moves of random rows (a long
    /// run of moves), compacting at `compactionThreshold` (nil: never, so every move is a log record),
    /// or, `stoppingBeforeAQuarterOfTheSnapshot`, as many as fit in a log just short of the size at
    /// which the default threshold compacts; returns the log's size in bytes.
    private static func buildMoveHeavyReplica(
        at path: String, rows: Int, records: Int, compactionThreshold: Int?,
        stoppingBeforeAQuarterOfTheSnapshot: Bool = false
    ) throws -> Int {
        let store = try DurableReplica<String>(
            directory: path,
            options: StoreOptions(commitPolicy: .batched(.milliseconds(5)), compactionThreshold: compactionThreshold))
        try store.update { $0.append(contentsOf: (0..<rows).map { "row \($0)" }) }
        try store.compact()
        // A one-row move is about 70 bytes of log: stop within 100 moves of a quarter of the snapshot.
        let limit = try stoppingBeforeAQuarterOfTheSnapshot ? fileSize(path + "/snapshot") / 4 - 100 * 80 : .max
        var generator = SplitMix64(seed: 2)
        for record in 0..<records {
            if limit < .max, record % 100 == 0, try logSize(of: path) >= limit { break }
            let from = Int(generator.next() % UInt64(rows))
            let to = Int(generator.next() % UInt64(rows + 1))
            try store.update { $0.move(fromOffsets: [from], toOffset: to) }
        }
        try store.close()
        return try logSize(of: path)
    }

    /// The bytes of every log segment of the replica at `path`.
    private static func logSize(of path: String) throws -> Int {
        let names = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasPrefix("log-") }
        return try names.reduce(0) { total, name in try total + fileSize(path + "/" + name) }
    }

    /// The size of the file at `path`.
    private static func fileSize(_ path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
    }

    /// Single-writer commits per second on a 1,000-row list, each an edit of one row, until the last
    /// one is durable.
    private static func commitsPerSecond(_ policy: CommitPolicy, settings: Settings, name: String) throws -> Double {
        let store = try DurableReplica<String>(
            directory: settings.directory + "/" + name, options: StoreOptions(commitPolicy: policy))
        try store.update { $0.append(contentsOf: (0..<1_000).map { "row \($0)" }) }
        let start = DispatchTime.now().uptimeNanoseconds
        for commit in 0..<settings.commits {
            try store.update { $0.updateValue("edit \(commit)", at: commit % 1_000) }
        }
        try store.flush()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        try store.close()
        return Double(settings.commits) / seconds
    }

    /// Builds a replica of `settings.rows` rows in its snapshot and `settings.records` log records (edits
    /// merged from a peer), closes it, and returns the snapshot file's size.
    private static func buildLargeReplica(at path: String, settings: Settings) throws -> Int {
        let store = try DurableReplica<String>(
            directory: path, options: StoreOptions(commitPolicy: .batched(.milliseconds(5)), compactionThreshold: nil))
        try store.update { $0.append(contentsOf: (0..<settings.rows).map { "row \($0)" }) }
        try store.compact()
        let snapshotBytes = try fileSize(path + "/snapshot")
        // A peer with a small list of its own makes the edits, so extracting each change set stays cheap.
        let peer = ReplicatedList<String>()
        peer.append(contentsOf: (0..<1_000).map { "peer row \($0)" })
        var sent = VersionVector()
        var generator = SplitMix64(seed: 1)
        for record in 0..<settings.records {
            let index = Int(generator.next() % UInt64(peer.count))
            if record % 4 == 0 {
                peer.move(fromOffsets: [index], toOffset: Int(generator.next() % UInt64(peer.count + 1)))
            } else {
                peer.updateValue("peer edit \(record)", at: index)
            }
            try store.merge(peer.changes(since: sent))
            sent = peer.versionVector
        }
        try store.close()
        return snapshotBytes
    }

    /// Formats a number with one decimal place.
    private static func format(_ value: Double) -> String {
        String((value * 10).rounded() / 10)
    }
}
