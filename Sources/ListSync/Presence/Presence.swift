/// What one peer shows the others about itself right now: its name, the rows it has selected, the
/// drag it is making and the drops still loading on it.
///
/// Presence is ephemeral: it travels beside the changes but is never stored and never part of a change
/// set. Rows are named by ``RowID``, so a presence stays right through concurrent moves; rows deleted
/// meanwhile are left out when it is read (``PresenceTable/presences(showing:)``).
public struct Presence: Hashable, Sendable {
    /// Where a drag would drop now.
    public enum Hover: Hashable, Sendable {
        /// Between rows, just before this one.
        case before(RowID)
        /// After the last row.
        case end
        /// Onto this row (a drop that merges into it).
        case onto(RowID)
    }

    /// A drag in progress: the rows dragged and where it hovers.
    public struct Drag: Hashable, Sendable {
        /// The rows dragged, in list order.
        public var rows: [RowID]
        /// Where it would drop now; nil while it hovers outside the list.
        public var hover: Hover?

        /// Creates a drag.
        public init(rows: [RowID], hover: Hover? = nil) {
            self.rows = rows
            self.hover = hover
        }
    }

    /// Placeholders pending on that peer, shown to others as "dropping N items here".
    public struct PendingDrop: Hashable, Sendable {
        /// How many placeholders.
        public var count: Int
        /// The confirmed row just before them; nil when they are at the top.
        public var after: RowID?

        /// Creates a pending drop.
        public init(count: Int, after: RowID?) {
            self.count = count
            self.after = after
        }
    }

    /// The name people know the peer by (at most ``Limits/nameByteCount`` bytes of UTF-8).
    public var name: String
    /// The rows selected, in list order.
    public var selection: [RowID]
    /// The drag in progress, if any.
    public var drag: Drag?
    /// The drops still loading.
    public var pendingDrops: [PendingDrop]

    /// Creates a presence.
    public init(name: String, selection: [RowID] = [], drag: Drag? = nil, pendingDrops: [PendingDrop] = []) {
        self.name = name
        self.selection = selection
        self.drag = drag
        self.pendingDrops = pendingDrops
    }

    /// The most a presence holds; larger ones are refused when set and when received.
    public enum Limits {
        /// The most bytes of UTF-8 in a name.
        public static let nameByteCount = 64
        /// The most rows selected, and the most rows dragged.
        public static let rowCount = 256
        /// The most pending drops.
        public static let pendingDropCount = 16
        /// The most placeholders one pending drop counts.
        public static let placeholderCount = 10_000
    }

    /// Why the presence is larger than ``Limits`` allow; nil when it is within them.
    public var limitExceeded: String? {
        if name.utf8.count > Limits.nameByteCount {
            return "the name has \(name.utf8.count) bytes of UTF-8, more than \(Limits.nameByteCount)"
        }
        if selection.count > Limits.rowCount {
            return "\(selection.count) rows are selected, more than \(Limits.rowCount)"
        }
        if let drag, drag.rows.count > Limits.rowCount {
            return "\(drag.rows.count) rows are dragged, more than \(Limits.rowCount)"
        }
        if pendingDrops.count > Limits.pendingDropCount {
            return "\(pendingDrops.count) drops are pending, more than \(Limits.pendingDropCount)"
        }
        if let drop = pendingDrops.first(where: { !(1...Limits.placeholderCount).contains($0.count) }) {
            return "a pending drop counts \(drop.count) placeholders, not 1 to \(Limits.placeholderCount)"
        }
        return nil
    }

    /// Checks that the presence is within ``Limits``.
    /// - Throws: ``PresenceError/beyondLimits(_:)`` naming the first limit exceeded.
    public func validate() throws(PresenceError) {
        if let limitExceeded { throw .beyondLimits(limitExceeded) }
    }

    /// This presence without the rows `isShown` rejects (rows deleted or hidden): they leave the
    /// selection and the drag, a hover on such a row is cleared, and a pending drop after one moves to
    /// the top. A drag left with no rows ends.
    public func filteringRows(_ isShown: (RowID) -> Bool) -> Presence {
        var filtered = self
        filtered.selection = selection.filter(isShown)
        if let drag {
            let rows = drag.rows.filter(isShown)
            var hover = drag.hover
            switch hover {
            case .before(let row)?, .onto(let row)?: if !isShown(row) { hover = nil }
            case .end?, nil: break
            }
            filtered.drag = rows.isEmpty ? nil : Drag(rows: rows, hover: hover)
        }
        filtered.pendingDrops = pendingDrops.map { drop in
            PendingDrop(count: drop.count, after: drop.after.flatMap { isShown($0) ? $0 : nil })
        }
        return filtered
    }
}
