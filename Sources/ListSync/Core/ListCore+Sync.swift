/// Change sets out and in.
extension ListCore {
    /// The row updates a replica that has seen `vector` lacks, each with the slot whose value it carries
    /// (nil when it carries no value), the field registers and deletions it lacks, and the operations
    /// they account for.
    ///
    /// A register travels when the operation that set it is not covered by `vector`; a peer that
    /// covers it already holds that value or a later one. The updates come in the canonical order of
    /// ``RowUpdate/canonicallyPrecedes(_:_:)``: those with a position walking the order index (sorted only
    /// when some are not visible or come from the journal), then the others sorted; the deletions in
    /// canonical runs.
    /// - Complexity: O(n + k log k + t) for n known rows, k updates without a position and the t entries
    ///   of the tombstones (``Tombstones/deletions(notCoveredBy:)``).
    func updates(since vector: VersionVector) -> (coverage: DotRanges, updates: UpdateList, deletions: [DeletionRun]) {
        // A one-entry cache in front of the version vector: rows come in long runs of one replica, and
        // the vector is almost always one range per replica, so a lookup is rarely needed.
        var cachedReplica: ReplicaID?
        var cachedCounters: CounterRanges?
        var cachedPrefix: UInt64 = 0
        func covers(_ dot: Dot) -> Bool {
            if dot.replica != cachedReplica {
                cachedReplica = dot.replica
                cachedCounters = vector.ranges[dot.replica]
                cachedPrefix = cachedCounters?.prefix ?? 0
            }
            return dot.counter <= cachedPrefix || cachedCounters?.contains(dot.counter) == true
        }
        var positioned = UpdateList()
        var waiting = UpdateList()
        var others = UpdateList()
        var fields: [RowID: FieldRegisters] = [:]
        var converter = KeyGrammar.Converter(from: .label)
        func visit(_ slot: Int32) {
            let record = rows[slot]
            var update = RowUpdate(id: record.id)
            if record.positionStamp.isSet && !covers(record.positionStamp.dot) {
                update.position = labels.widened(record.key, using: &converter)
                update.positionStamp = record.positionStamp
            }
            let carriesValue = record.valueStamp.isSet && !covers(record.valueStamp.dot)
            if carriesValue { update.valueStamp = record.valueStamp }
            let valueSlot = carriesValue ? slot : nil
            var carriesFields = false
            if !fieldRegisters.isEmpty, let registers = fieldRegisters[record.id] {
                let missing = registers.filter { !covers($0.value.stamp.dot) }
                carriesFields = !missing.isEmpty
                if carriesFields { fields[record.id] = missing }
            }
            if update.positionStamp.isSet {
                if rows.isVisible(slot) {
                    positioned.append(update, valueSlot: valueSlot)
                } else {
                    waiting.append(update, valueSlot: valueSlot)
                }
            } else if carriesValue || carriesFields {
                others.append(update, valueSlot: valueSlot)
            }
        }
        var deletions: [DeletionRun]
        let missing = seen.subtracting(vector)
        if let recent = recentRows(missing: missing) {
            // Only recent local operations are missing: visit the rows they touched.
            var visited = RowIDIndex()
            var deleted: [DeletionRun] = []
            for (offset, id) in recent.enumerated()
            where visited.insert(Int32(offset), for: id, unlessPresent: { recent[Int($0)] }) == nil {
                if let slot = rows.slot(of: id) {
                    visit(slot)
                } else if let deletion = tombstones[id], !covers(deletion.dot) {
                    deleted.append(DeletionRun(id, deletedBy: deletion))
                }
            }
            deletions = DeletionRun.canonical(deleted)
            // The touched rows come in journal order, not key order: sort them below.
            waiting.append(contentsOf: positioned)
            positioned = UpdateList()
        } else {
            order.forEachInOrder { slot in
                if rows.placeholder(of: slot) == nil { visit(slot) }  // placeholders never leave the replica
            }
            rows.forEachSlot { slot in
                if !rows.isVisible(slot) { visit(slot) }
            }
            deletions = tombstones.deletions(notCoveredBy: vector)
        }
        if !waiting.isEmpty {
            positioned.append(contentsOf: waiting)
            positioned.sort(by: RowUpdate.canonicallyPrecedes)
        }
        others.sort(by: RowUpdate.canonicallyPrecedes)
        positioned.append(contentsOf: others)
        positioned.fields = fields
        return (missing, positioned, deletions)
    }

    /// The rows touched by the missing operations when they are all recent local ones in the journal.
    private func recentRows(missing: DotRanges) -> [RowID]? {
        if missing.isEmpty { return [] }
        guard missing.entries.count == 1, let counters = missing[replica], counters.ranges.count == 1 else {
            return nil
        }
        return journal.rows(touchedBy: counters.ranges[0])
    }

    /// Checks that every operation of `changes` is accounted for, as ``validate(_:coverage:)``, field
    /// registers' included.
    @usableFromInline
    func validate(_ changes: ChangeSet) throws(MergeError) {
        try validate(changes.updates, coverage: changes.coverage)
        var check = CoverageCheck(coverage: changes.coverage, seen: seen)
        for run in changes.deletions {
            if let (row, stamp) = check.firstUncovered(in: run) {
                throw .uncoveredOperation(row: row, operation: stamp.dot)
            }
        }
        for (row, registers) in changes.fields {
            for register in registers.values where !check.isAccounted(register.stamp.dot) {
                throw .uncoveredOperation(row: row, operation: register.stamp.dot)
            }
        }
    }

    /// Merges a validated change set: records its coverage as seen and applies its updates and deletions;
    /// the values of the updates at offsets in `hiding` are ones the owner cannot show
    /// (``apply(_:deletions:fields:placeholderKeys:hiding:)``).
    /// - Complexity: O(k log n) for k updates and deleted rows.
    @usableFromInline
    mutating func merge(_ changes: ChangeSet, hiding: Set<Int>) -> ListChange {
        markSeen(changes.coverage)
        var updates = changes.updates
        // All the replicas the keys name, labelled at once: one by one, a change set naming many new
        // replicas would cost O(r) each and, arriving in increasing order, lengthen their labels by a byte
        // per five (``ReplicaLabels/label(_:)``).
        labels.label(KeyGrammar.replicas(namedBy: updates.lazy.compactMap(\.position)))
        var converter = KeyGrammar.Converter(from: .portable)
        for offset in updates.indices {
            keepCountersAbove(updates[offset].id)
            if let key = updates[offset].position {
                updates[offset].position = labels.narrowed(key, using: &converter)
            }
        }
        for row in changes.fields.keys { keepCountersAbove(row) }
        for run in changes.deletions { keepCountersAbove(RowID(replica: run.replica, counter: run.end - 1)) }
        return apply(updates, deletions: changes.deletions, fields: changes.fields, hiding: hiding)
    }

    /// Checks that every operation in `updates` is accounted for by `coverage` or was seen already,
    /// so the version vector keeps covering every dot in the state.
    func validate(_ updates: [RowUpdate], coverage: DotRanges) throws(MergeError) {
        var check = CoverageCheck(coverage: coverage, seen: seen)
        for update in updates {
            if let stamp = check.firstUncovered(in: update) {
                throw .uncoveredOperation(row: update.id, operation: stamp.dot)
            }
        }
    }
}

/// Whether the operations of row updates are accounted for by a change set's coverage or were seen
/// already, with a one-entry cache of both lookups: updates come in long runs of one replica's operations.
struct CoverageCheck {
    private let coverage: DotRanges
    private let seen: DotRanges
    private var cachedReplica: ReplicaID?
    private var cachedCoverage: CounterRanges?
    private var cachedSeen: CounterRanges?

    /// A check against `coverage` and `seen`.
    init(coverage: DotRanges, seen: DotRanges) {
        self.coverage = coverage
        self.seen = seen
    }

    /// The first stamp of `update` whose operation is not accounted for, or nil.
    mutating func firstUncovered(in update: RowUpdate) -> Stamp? {
        update.firstStamp { !isAccounted($0.dot) }
    }

    /// Whether operation `dot` is accounted for.
    mutating func isAccounted(_ dot: Dot) -> Bool {
        look(at: dot.replica)
        return cachedCoverage?.contains(dot.counter) == true || cachedSeen?.contains(dot.counter) == true
    }

    /// A row of `run` whose delete is not accounted for, and its delete stamp; nil when every one is.
    /// - Complexity: O(log r) for r ranges, whatever the run's length.
    mutating func firstUncovered(in run: DeletionRun) -> (row: RowID, stamp: Stamp)? {
        look(at: run.stamp.dot.replica)
        for range in cachedCoverage?.gaps(in: run.dotCounters) ?? [run.dotCounters] {
            let missing = cachedSeen.map { $0.gaps(in: range).first } ?? range
            guard let missing else { continue }
            let offset = run.offsets(ofDotCounters: missing.lowerBound...missing.lowerBound).lowerBound
            return (RowID(replica: run.replica, counter: run.first + offset), run.stamp(at: offset))
        }
        return nil
    }

    /// Makes the cache hold the ranges of `replica`.
    private mutating func look(at replica: ReplicaID) {
        guard replica != cachedReplica else { return }
        cachedReplica = replica
        cachedCoverage = coverage[replica]
        cachedSeen = seen[replica]
    }
}

/// Why a change set could not be merged. Nothing of it was applied.
public enum MergeError: Error, Hashable, Sendable {
    /// An update of `row` carries operation `operation`, which the change set does not account for.
    case uncoveredOperation(row: RowID, operation: Dot)
    /// The bytes are not a valid change set or snapshot.
    case malformed(BinaryDecodingError)
}

/// Row updates and, for each, the slot whose value it carries: two parallel arrays, built in place.
struct UpdateList {
    /// The updates.
    private(set) var updates: [RowUpdate] = []
    /// For each update, the slot of the value it carries, or nil.
    private(set) var valueSlots: [Int32?] = []
    /// Field registers by row, for rows among the updates.
    var fields: [RowID: FieldRegisters] = [:]

    /// Whether there are no updates.
    var isEmpty: Bool { updates.isEmpty }

    /// Appends an update.
    mutating func append(_ update: RowUpdate, valueSlot: Int32?) {
        updates.append(update)
        valueSlots.append(valueSlot)
    }

    /// Appends every update of `other`.
    mutating func append(contentsOf other: UpdateList) {
        updates.append(contentsOf: other.updates)
        valueSlots.append(contentsOf: other.valueSlots)
    }

    /// Sorts the updates (and their slots) by `areInIncreasingOrder`.
    mutating func sort(by areInIncreasingOrder: (RowUpdate, RowUpdate) -> Bool) {
        let order = updates.indices.sorted { areInIncreasingOrder(updates[$0], updates[$1]) }
        updates = order.map { updates[$0] }
        valueSlots = order.map { valueSlots[$0] }
    }
}
