@testable import ListSync

/// Rows with equal keys. The allocator never makes them (every key ends in its allocator's tag), but a
/// peer that does not follow its rules can, and so can data of format versions 1 to 3: the row ID
/// breaks the tie, and local edits around such rows must still work.
enum TiedKeys {
    /// The change set of `value` inserted at `index + 1` of a copy of `target` by replica `writer`,
    /// with the key of `target`'s row (or placeholder) at `index` instead of the one its allocator chose.
    static func insert(
        _ value: String, withKeyAt index: Int, of target: ReplicatedList<String>, writer: ReplicaID
    ) throws -> ChangeSet {
        let copy = ReplicatedList<String>(replicaID: writer)
        try copy.merge(target.changes(since: VersionVector()))
        let before = copy.versionVector
        copy.insert(value, at: copy.count)
        var changes = copy.changes(since: before)
        for offset in changes.updates.indices where changes.updates[offset].position != nil {
            changes.updates[offset].position = target.positionKey(at: index)
        }
        return changes
    }
}
