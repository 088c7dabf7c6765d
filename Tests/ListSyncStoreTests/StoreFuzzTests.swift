import Foundation
import ListSync
import ListSyncStore
import TestSupport
import Testing

/// Random truncations, bit flips and missing files in a replica directory with a known history of
/// acknowledged changes; every open (strict and salvage) ends in a typed error or in the state after
/// some prefix of those changes (for salvage of a lost snapshot: of a run of the changes logged after it), and a
/// salvaged directory then opens cleanly to the same state. 8 seeds in `swift test`, 900 in the long run
/// (``RunSize``); `LISTSYNC_STORE_FUZZ_SEEDS=N` runs N seeds; `LISTSYNC_STORE_FUZZ_SEED=S` replays one.
struct StoreFuzzTests {
    static let environment = ProcessInfo.processInfo.environment
    static let seeds: [UInt64] =
        environment["LISTSYNC_STORE_FUZZ_SEED"].flatMap { UInt64($0) }.map { [$0] }
        ?? Array(RunSize.seeds("LISTSYNC_STORE_FUZZ_SEEDS", quick: 8, long: 900, from: 0xF0_2200))
    static let trialsPerSeed = 10

    /// A replica directory and the acknowledged change sets that made it, in order; the first
    /// `snapshotCovers` of them are in its snapshot.
    struct History {
        var changes: [ChangeSet] = []
        var snapshotCovers = 0
        /// The full state after each prefix of `changes` (index k: after the first k).
        var prefixStates: [ChangeSet] = []
        /// The full state after changes `a ..< k`, for each `snapshotCovers <= a <= k`.
        var afterSnapshotStates: [ChangeSet] = []
    }

    /// Makes the replica `path`: random local edits and merges from a peer over a few opens (so several
    /// segments), compacting once at a random point.
    static func makeHistory(at path: String, rng: inout SplitMix64) throws -> History {
        var history = History()
        let peer = ReplicatedList<String>(replicaID: ReplicaID(rawValue: 0xFEED))
        let compactAt = Int(rng.next() % 30)
        var step = 0
        for _ in 0..<(1 + Int(rng.next() % 3)) {
            let store = try DurableReplica<String>(directory: path, options: StoreOptions(counterReservationBlock: 4))
            for _ in 0..<(4 + Int(rng.next() % 12)) {
                let random = rng.next()
                let commit: Commit
                if random % 5 == 0 {
                    peer.insert("peer \(step)", at: Int(random % UInt64(peer.count + 1)))
                    commit = try store.merge(peer.changes(since: store.read { $0.versionVector }))
                } else {
                    commit = try store.update { [step] list in
                        if list.isEmpty || random % 3 == 0 {
                            list.insert("row \(step)", at: Int(random % UInt64(list.count + 1)))
                        } else if random % 3 == 1 {
                            list.move(fromOffsets: [Int(random % UInt64(list.count))], toOffset: 0)
                        } else {
                            list.updateValue("edit \(step)", at: Int(random % UInt64(list.count)))
                        }
                    }
                }
                if !commit.changes.isEmpty { history.changes.append(commit.changes) }
                step += 1
                if step == compactAt {
                    try store.compact()
                    history.snapshotCovers = history.changes.count
                }
            }
            try store.close()
        }
        func states(from start: Int) throws -> [ChangeSet] {
            let list = ReplicatedList<String>()
            var states = [fullState(list)]
            for changes in history.changes[start...] {
                try list.merge(changes)
                states.append(fullState(list))
            }
            return states
        }
        history.prefixStates = try states(from: 0)
        // A lost snapshot also loses where the log started: any run of the later changes may remain.
        history.afterSnapshotStates = try (history.snapshotCovers..<history.changes.count + 1).flatMap(states)
        return history
    }

    /// Damages the replica at `path`: one to three truncations, bit flips or removed files.
    static func damage(_ path: String, rng: inout SplitMix64) throws -> [String] {
        var done: [String] = []
        for _ in 0..<(1 + Int(rng.next() % 3)) {
            let names = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0 != "LOCK" }.sorted()
            guard !names.isEmpty else { break }
            let name = names[Int(rng.next() % UInt64(names.count))]
            let url = URL(fileURLWithPath: path + "/" + name)
            var bytes = try [UInt8](Data(contentsOf: url))
            switch rng.next() % 3 {
            case 0:
                let length = bytes.isEmpty ? 0 : Int(rng.next() % UInt64(bytes.count))
                bytes.removeLast(bytes.count - length)
                done.append("truncate \(name) to \(length)")
            case 1 where !bytes.isEmpty:
                let offset = Int(rng.next() % UInt64(bytes.count))
                bytes[offset] ^= 1 << UInt8(rng.next() % 8)
                done.append("flip a bit at \(offset) of \(name)")
            default:
                try FileManager.default.removeItem(at: url)
                done.append("remove \(name)")
                continue
            }
            try Data(bytes).write(to: url)
        }
        return done
    }

    /// Opens `path` with `recovery`; returns what is wrong with the outcome, or nil.
    static func check(_ path: String, recovery: RecoveryMode, history: History) -> String? {
        let store: DurableReplica<String>
        do {
            store = try DurableReplica<String>(directory: path, options: StoreOptions(recovery: recovery))
        } catch {
            return nil  // refusing damage with a StoreError (the initializer throws no other) is allowed
        }
        let state = store.read { fullState($0) }
        try? store.close()
        let lostSnapshot = store.recoveryReport.salvaged.contains { $0.damage.isAboutSnapshot }
        let allowed = history.prefixStates + (lostSnapshot ? history.afterSnapshotStates : [])
        guard allowed.contains(state) else {
            return "\(recovery): the state is no prefix of the history (\(store.recoveryReport.lines))"
        }
        guard recovery == .salvage else { return nil }
        do {
            let reopened = try DurableReplica<String>(directory: path)
            defer { try? reopened.close() }
            if !reopened.recoveryReport.isClean { return "salvaged directory does not reopen cleanly" }
            if reopened.read({ fullState($0) }) != state { return "salvaged directory reopens to another state" }
        } catch {
            return "salvaged directory does not reopen: \(error)"
        }
        return nil
    }

    @Test func damagedDirectoriesOpenToAPrefixOrATypedError() throws {
        for seed in Self.seeds {
            announceSeed(
                seed, of: "StoreFuzzTests",
                replay: "LISTSYNC_STORE_FUZZ_SEED=\(seed) swift test --filter StoreFuzzTests")
            var rng = SplitMix64(seed: seed)
            let directory = try TemporaryDirectory()
            let history = try Self.makeHistory(at: directory.file("source"), rng: &rng)
            for trial in 0..<Self.trialsPerSeed {
                for recovery in [RecoveryMode.strict, .salvage] {
                    let name = "trial\(trial)-\(recovery)"
                    try directory.copyReplica("source", to: name)
                    var damageRNG = SplitMix64(seed: seed &* 31 &+ UInt64(trial))
                    let damage = try Self.damage(directory.file(name), rng: &damageRNG)
                    let problem = Self.check(directory.file(name), recovery: recovery, history: history)
                    #expect(problem == nil, "seed \(seed), trial \(trial), \(damage): \(problem ?? "")")
                }
            }
        }
    }
}

extension StoreError {
    /// Whether this is damage of the snapshot file.
    fileprivate var isAboutSnapshot: Bool {
        if case .corrupt(let path, _, _) = self { return path.hasSuffix("/snapshot") }
        return false
    }
}
