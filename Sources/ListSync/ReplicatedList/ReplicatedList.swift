import Foundation

/// An ordered list of rows that any number of replicas edit concurrently and offline, and that
/// converges once they have exchanged changes.
///
/// Rows are read as a `RandomAccessCollection` of ``Row`` values, each `Identifiable` by a stable
/// ``RowID``. Every mutation is one atomic change with its own operation dots, and returns a
/// ``ListChange`` a table view can apply directly. Exchange changes with ``changes(since:)`` and
/// ``merge(_:)``:
///
/// ```swift
/// let phone = ReplicatedList<String>()
/// let laptop = ReplicatedList<String>()
/// phone.append(contentsOf: ["Paris", "Rome"])
/// try laptop.merge(phone.changes(since: laptop.versionVector))
/// laptop.move(fromOffsets: [1], toOffset: 0)
/// try phone.merge(laptop.changes(since: phone.versionVector))
/// // both now read Rome, Paris
/// ```
///
/// A replica has identity (its ``ReplicaID`` and operation counter), so it is a class: copying one
/// would let two replicas issue the same operation dots. It is not thread-safe; keep it on one actor.
public final class ReplicatedList<Element: Codable & Sendable> {
    // These four stored properties skip the runtime exclusivity check (`core` and `values` about a
    // tenth of a local operation's time; the two tables, tested for emptiness on every edit, another
    // 3 %). Safe because accesses never overlap: every method accesses them one at a time, and nothing
    // run during an access (the core's methods, the value closures passed to `store`) reaches back
    // into this replica; the class is not Sendable, so no other thread can access it either.
    @usableFromInline @exclusivity(unchecked) var core: ListCore
    /// Decoded values by row slot.
    @usableFromInline @exclusivity(unchecked) var values: ContiguousArray<Element?> = []
    /// Values that did not decode as `Element`, kept as received, by row slot (their rows are hidden).
    @usableFromInline @exclusivity(unchecked) var undecodable: [Int32: UndecodableValue] = [:]
    /// The exact bytes of whole-value registers, by row slot, of rows whose values are not what encoding
    /// their decoded values gives: rows with field registers, or with fields this version does not know
    /// (docs/field-registers.md). Other rows' whole values are their encoded ``values``.
    @usableFromInline @exclusivity(unchecked) var wholeValues: [Int32: ChangeSet.Payload] = [:]
    /// The combined batch of the open ``transaction(_:)``'s changes so far; nil outside one. Skips the
    /// exclusivity check for the reason above: only ``recorded(_:)`` and `transaction` access it.
    @usableFromInline @exclusivity(unchecked) var transactionChange: ListChange?
    /// The undo and redo stacks, once ``enableUndo(limit:)`` was called.
    var undoHistory: UndoHistory<Element>?
    /// Whether local edits are recorded for undo (``undoHistory`` is set): one test per edit. Skips the
    /// exclusivity check for the reason above.
    @usableFromInline @exclusivity(unchecked) var recordsUndo = false

    /// Creates an empty replica.
    /// - Parameter replicaID: this replica's identity; random by default. Never give two live replicas
    ///   the same identity.
    public init(replicaID: ReplicaID = .random()) {
        core = ListCore(replica: replicaID)
    }

    /// Creates a replica holding the state of a snapshot made by ``snapshot()``.
    ///
    /// Values that do not decode as `Element` are kept as they are, their rows hidden
    /// (``undecodableRows``).
    /// - Throws: ``MergeError/malformed(_:)`` when the bytes are not a valid snapshot, or another
    ///   ``MergeError`` when its operations are inconsistent.
    @inlinable
    public convenience init(snapshot: [UInt8], replicaID: ReplicaID = .random()) throws(MergeError) {
        self.init(replicaID: replicaID)
        let encoded = try core.load(snapshot: snapshot)
        let expectedType = ValueCoding.typeIdentifier(of: Element.self)
        let readable = encoded.types.map { $0 == expectedType }
        if Element.self == String.self && core.fieldRegisters.isEmpty && !readable.contains(false) {
            // Rows of text, every value readable: decoded without a generic call per value (the caller may
            // not be specialised). The bit cast is from the type itself.
            let text = ValueCoding.decodeText(
                encoded.values, slots: encoded.slots, in: snapshot, slotCount: core.rows.slotCount,
                capacity: core.rows.slotCapacity)
            values = unsafeBitCast(text, to: ContiguousArray<Element?>.self)
            return
        }
        LargeTables.reserve(&values, capacity: core.rows.slotCapacity)  // the room the rows have, for the first edits
        // A load fills slots in order, so values are appended in slot order (nil for a row without one).
        for (slot, value) in zip(encoded.slots, encoded.values) {
            precondition(Int(slot) >= values.count, "snapshot values out of slot order")
            while values.count < Int(slot) { values.append(nil) }
            let payload = { ChangeSet.Payload(typeIdentifier: encoded.types[value.type], bytes: snapshot[value.bytes]) }
            if !core.fieldRegisters.isEmpty, let registers = core.fieldRegisters[core.rows.id(of: slot)] {
                values.append(loadValue(whole: payload(), registers: registers, inSlot: slot))
                continue
            }
            guard readable[value.type] else {
                values.append(nil)
                undecodable[slot] = .ofAnotherType(payload(), expected: Element.self)
                continue
            }
            do {
                let decoded = try ValueCoding.decode(snapshot[value.bytes], as: Element.self)
                values.append(decoded)
                if Self.hasFields, let kept = Self.keptWhole(of: decoded, bytes: snapshot[value.bytes]) {
                    wholeValues[slot] = kept
                }
            } catch {
                values.append(nil)
                undecodable[slot] = UndecodableValue(payload(), reason: String(describing: error))
            }
        }
        while values.count < core.rows.slotCount { values.append(nil) }
        if !undecodable.isEmpty { core.hide(Array(undecodable.keys)) }
    }

    /// This replica's identity.
    public var replicaID: ReplicaID { core.replica }

    /// For each replica, how many of its operations this replica has seen (contiguously).
    public var versionVector: VersionVector { core.versionVector }

    /// The Lamport clock: the highest Lamport time seen or made.
    public var lamportClock: UInt64 { core.clock }

    /// The counter the next local operation will use.
    public var nextOperationCounter: UInt64 { core.nextCounter }

    /// Whether local edits can get stamps. Always true but for a replica whose Lamport clock reached
    /// ``Stamp/maximumLamport`` or whose counters came within 2^32 of ``Dot/maximumCounter``, which only a
    /// peer or file forging such values brings about (honest replicas take 2^62 operations). Local
    /// edits then change nothing and return an empty batch (placeholder commits throw), while merges and
    /// sync go on, so the replica still shows everything its peers do.
    public var canEdit: Bool { core.canMakeOperations }

    /// Makes local operations use counters of at least `counter` from now on.
    ///
    /// Durable storage calls this after a restart with a counter above any it may have handed out
    /// before a crash, so no operation dot is ever reused. Counters skipped this way are simply never
    /// used; operations the replica made but lost still reach it back from any peer that has them.
    public func reserveOperationCounters(from counter: UInt64) {
        core.raiseNextCounter(to: counter)
    }

    /// The index of the visible row `id`, or nil when it is not visible.
    /// - Complexity: O(log n)
    public func index(forRow id: RowID) -> Int? { core.index(of: id) }

    /// The visible row `id`, or nil.
    /// - Complexity: O(log n)
    public subscript(row id: RowID) -> Row<Element>? {
        index(forRow: id).map { self[$0] }
    }

    /// The position key of the visible row at `index`, in the form every replica shares (its tags name
    /// replicas by ID), so a row's key is the same on every replica that has it (for diagnostics).
    /// - Complexity: O(log n + key length)
    public func positionKey(at index: Int) -> PositionKey { core.labels.widened(core.record(at: index).key) }

    /// The number of bytes the position key of the visible row at `index` takes in this replica's memory,
    /// where its tags are short labels: what key-length measurements report.
    /// - Complexity: O(log n)
    public func storedPositionKeyLength(at index: Int) -> Int { core.record(at: index).key.count }

    /// Whether the row `id` was deleted (deletion is final).
    public func isDeleted(_ id: RowID) -> Bool { core.isDeleted(id) }

    /// Stores decoded values for the slots the core's latest change touched (``ListCore/touched``) and
    /// returns its batch, `change`, recorded in the open transaction; `undecodableValues` are the values,
    /// by offset, that did not decode, and `wholes` the whole-value registers, by offset, to keep as
    /// bytes (``wholeValues``); nil for none (a local edit: no dictionary is made for it).
    @inlinable
    func store(
        _ change: ListChange, values newValues: (Int) -> Element?,
        undecodable undecodableValues: [Int: UndecodableValue]? = nil, wholes: [Int: ChangeSet.Payload]? = nil
    ) -> ListChange {
        let slotCount = core.rows.slotCount
        if values.count < slotCount {
            LargeTables.makeRoom(&values, for: slotCount - values.count)
            repeat { values.append(nil) } while values.count < slotCount
        }
        for slot in core.touched.freedSlots { values[Int(slot)] = nil }
        for (offset, slot) in core.touched.valueSlots.enumerated() {
            guard let slot else { continue }
            values[Int(slot)] = newValues(offset)
        }
        if !undecodable.isEmpty || undecodableValues?.isEmpty == false {
            for slot in core.touched.freedSlots { undecodable[slot] = nil }
            for (offset, slot) in core.touched.valueSlots.enumerated() {
                guard let slot else { continue }
                undecodable[slot] = undecodableValues?[offset]
            }
        }
        if !wholeValues.isEmpty || wholes?.isEmpty == false {
            for slot in core.touched.freedSlots { wholeValues[slot] = nil }
            for (offset, slot) in core.touched.valueSlots.enumerated() {
                guard let slot else { continue }
                wholeValues[slot] = wholes?[offset]
            }
        }
        return recorded(change)
    }

    /// Adds `change` to the open transaction's batch, if one is open, and returns it.
    @inlinable
    func recorded(_ change: ListChange) -> ListChange {
        if let open = transactionChange, !change.isEmpty { transactionChange = open.followed(by: change) }
        return change
    }

    /// The value in `slot`; every visible row has one.
    @inlinable
    func value(inSlot slot: Int32) -> Element {
        guard let value = values[Int(slot)] else { preconditionFailure("visible row without a value in slot \(slot)") }
        return value
    }
}

extension ReplicatedList: RandomAccessCollection {
    /// Rows are indexed by offset.
    public typealias Index = Int
    /// The indices of the visible rows.
    public typealias Indices = Range<Int>

    /// Always 0.
    @inlinable
    public var startIndex: Int { 0 }

    /// The number of visible rows, pending placeholders included.
    @inlinable
    public var endIndex: Int { core.count }

    /// The visible row or pending placeholder at `position`.
    /// - Complexity: O(log n)
    @inlinable
    public subscript(position: Int) -> Row<Element> {
        row(inSlot: core.slot(at: position))
    }

    /// The row or placeholder in `slot`.
    @inlinable
    func row(inSlot slot: Int32) -> Row<Element> {
        let id = core.rows.placeholder(of: slot).map(ItemID.placeholder) ?? .row(core.rows.id(of: slot))
        return Row(id: id, value: value(inSlot: slot))
    }
}
