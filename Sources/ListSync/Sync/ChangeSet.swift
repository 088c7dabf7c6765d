/// What one replica sends another: the row registers and the deletions the receiver lacks, and the
/// exact operations they account for.
///
/// Produced by ``ReplicatedList/changes(since:)`` and consumed by ``ReplicatedList/merge(_:)``.
/// Merging is idempotent, commutative and associative, so change sets may be duplicated, delayed and
/// reordered. A change set accounts for every operation in its coverage, including operations whose
/// effect was overwritten by a later one (only the winning registers travel).
public struct ChangeSet: Hashable, Sendable {
    /// A row value as it travels: a type identifier and bytes.
    @usableFromInline
    struct Payload: Hashable, Sendable {
        @usableFromInline var typeIdentifier: String
        /// The value's bytes; decoded payloads share the buffer they were decoded from.
        @usableFromInline var bytes: ArraySlice<UInt8>

        /// A value of type `typeIdentifier` with `bytes`.
        @usableFromInline
        init(typeIdentifier: String, bytes: ArraySlice<UInt8>) {
            self.typeIdentifier = typeIdentifier
            self.bytes = bytes
        }
    }

    /// The operations this change set accounts for.
    var coverage: DotRanges
    /// Row updates, one per row, in the canonical order of ``RowUpdate/canonicallyPrecedes(_:_:)``.
    var updates: [RowUpdate]
    /// For each update, the value when the update sets one.
    @usableFromInline var payloads: [Payload?]
    /// Field registers (docs/field-registers.md) by row; every row here has an update among ``updates``.
    @usableFromInline var fields: [RowID: FieldRegisters] = [:]
    /// Deleted rows, in canonical runs (``DeletionRun/Canonical``); none of them has an update.
    var deletions: [DeletionRun] = []

    /// An empty change set.
    public init() {
        coverage = DotRanges()
        updates = []
        payloads = []
    }

    /// A change set of `updates` (unique row IDs) with their values and field registers, kept in the
    /// canonical order of ``RowUpdate/canonicallyPrecedes(_:_:)``, and of `deletions` (disjoint, rows
    /// without an update), kept in canonical runs: equal states make equal change sets and equal bytes.
    init(
        coverage: DotRanges, updates: [RowUpdate], payloads: [Payload?], fields: [RowID: FieldRegisters] = [:],
        deletions: [DeletionRun] = []
    ) {
        precondition(updates.count == payloads.count)
        self.coverage = coverage
        self.fields = fields
        self.deletions = DeletionRun.canonical(deletions)
        let isCanonical = updates.withUnsafeBufferPointer { buffer in
            buffer.indices.dropFirst().allSatisfy { RowUpdate.canonicallyPrecedes(buffer[$0 - 1], buffer[$0]) }
        }
        if isCanonical {
            self.updates = updates
            self.payloads = payloads
        } else {
            let order = updates.indices.sorted { RowUpdate.canonicallyPrecedes(updates[$0], updates[$1]) }
            self.updates = order.map { updates[$0] }
            self.payloads = order.map { payloads[$0] }
        }
    }

    /// Whether the change set carries nothing.
    public var isEmpty: Bool { updates.isEmpty && deletions.isEmpty && coverage.isEmpty }

    /// The number of rows it touches, deleted ones included; `Int.max` when it claims more (a change set
    /// from a peer may claim any number of deleted rows: they take no room).
    public var rowCount: Int {
        let deleted = deletions.reduce(UInt64(0)) { $0.addingSaturated($1.length) }
        return Int(clamping: deleted.addingSaturated(UInt64(updates.count)))
    }

    /// The number of operations it accounts for.
    public var operationCount: UInt64 { coverage.count }

    /// The values the updates carry, decoded as `Element`: one per update, nil where it carries none;
    /// those that are not an `Element` are kept as they are, by update offset.
    /// - Complexity: O(k) for k updates.
    @inlinable
    func decodedValues<Element: Codable>(as type: Element.Type) -> DecodedValues<Element> {
        var decoded = DecodedValues<Element>()
        decoded.values.reserveCapacity(payloads.count)
        for (offset, payload) in payloads.enumerated() {
            guard let payload else {
                decoded.values.append(nil)
                continue
            }
            switch ValueCoding.decode(payload, as: Element.self) {
            case .success(let value):
                decoded.values.append(value)
            case .failure(let undecodable):
                decoded.values.append(nil)
                decoded.undecodable[offset] = undecodable
            }
        }
        return decoded
    }
}
