/// Change sets out and in.
extension ListCore {
    /// The row updates a replica that has seen `vector` lacks, each with the slot
    /// whose value it carries (nil when it carries no value), and the operations they account for.
    ///
    /// A register travels when the operation that set it is not covered by `vector`; a peer that
    /// covers it already holds that value or a later one.
    /// - Complexity: O(n) for n known rows.
    func updates(since vector: VersionVector) -> (coverage: DotRanges, updates: [(RowUpdate, Int32?)]) {
        var result: [(RowUpdate, Int32?)] = []
        rows.forEachSlot { slot in
            let record = rows[slot]
            var update = RowUpdate(id: record.id)
            if record.positionStamp.isSet && !vector.contains(record.positionStamp.dot) {
                update.position = record.key
                update.positionStamp = record.positionStamp
            }
            let carriesValue = record.valueStamp.isSet && !vector.contains(record.valueStamp.dot)
            if carriesValue { update.valueStamp = record.valueStamp }
            if update.positionStamp.isSet || carriesValue { result.append((update, carriesValue ? slot : nil)) }
        }
        tombstones.forEach { id, deletion in
            if !vector.contains(deletion.dot) { result.append((RowUpdate(id: id, deletion: deletion), nil)) }
        }
        return (seen.subtracting(vector), result)
    }

    /// Checks that every operation in `updates` is accounted for by `coverage` or was seen already,
    /// so the version vector keeps covering every dot in the state.
    func validate(_ updates: [RowUpdate], coverage: DotRanges) throws(MergeError) {
        for update in updates {
            if let stamp = update.firstStamp(where: { !coverage.contains($0.dot) && !seen.contains($0.dot) }) {
                throw .uncoveredOperation(row: update.id, operation: stamp.dot)
            }
        }
    }
}

/// Why a change set could not be merged. Nothing of it was applied.
public enum MergeError: Error, Hashable, Sendable {
    /// An update of `row` carries operation `operation`, which the change set does not account for.
    case uncoveredOperation(row: RowID, operation: Dot)
    /// A value of `row` has a type identifier this list does not read.
    case typeMismatch(row: RowID, expected: String, found: String)
    /// A value of `row` could not be decoded as the list's element type.
    case undecodableValue(row: RowID, reason: String)
    /// The bytes are not a valid change set or snapshot.
    case malformed(BinaryDecodingError)
}
