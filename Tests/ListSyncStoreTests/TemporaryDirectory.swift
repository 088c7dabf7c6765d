import Foundation
import ListSync

/// A fresh directory under the system's temporary directory, removed with everything in it on deinit.
final class TemporaryDirectory {
    /// The directory's path.
    let path: String

    /// Creates the directory.
    init() throws {
        let base = FileManager.default.temporaryDirectory.path + "/listsync-store-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: false)
        path = base
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The path of `name` inside the directory.
    func file(_ name: String) -> String { path + "/" + name }

    /// The names of the log segments in `replica` (a subdirectory), sorted.
    func segments(in replica: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: file(replica)).filter { $0.hasPrefix("log-") }.sorted()
    }

    /// Copies the replica directory `source` to `destination` (without its lock file).
    func copyReplica(_ source: String, to destination: String) throws {
        try FileManager.default.createDirectory(atPath: file(destination), withIntermediateDirectories: false)
        for name in try FileManager.default.contentsOfDirectory(atPath: file(source)) where name != "LOCK" {
            try FileManager.default.copyItem(atPath: file(source + "/" + name), toPath: file(destination + "/" + name))
        }
    }
}

/// The whole state of `list` as a change set: two lists are equal replicas exactly when these are equal.
func fullState<Element>(_ list: ReplicatedList<Element>) -> ChangeSet {
    list.changes(since: VersionVector())
}
