import ListSync
import ListSyncNetwork

/// The rows a table view shows of a synced list, kept exact by the list's change events, and what to
/// tell the table about each change: the platform-neutral part of a `UITableView` data source.
///
/// The model keeps its own copy of the rows (``rows``), the ones the table shows, and changes it only
/// together with a ``TableUpdate`` it hands to `show`: the table, applying each update, always shows
/// exactly ``rows``. Changes from peers arrive on the main actor as they happen. Edits made in the table
/// (a reorder, a deletion, a drop) go through the peer and are shown at once; a reorder the table
/// already shows is not animated again. A committed placeholder keeps its item identifier
/// (``itemIdentifier(at:)``), and its update is a reconfigure.
///
/// ```swift
/// model = TableModel(peer: peer) { [weak tableView] update in
///     tableView?.performBatchUpdates { /* update.change: deleteRows, insertRows, moveRow */ }
///     tableView?.reconfigureRows(at: /* update.change.updated */)
/// }
/// // UITableViewDataSource
/// func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { model.count }
/// func tableView(_ tableView: UITableView, moveRowAt source: IndexPath, to destination: IndexPath) {
///     do { try model.moveRow(at: source.row, to: destination.row) } catch { report(error) }
/// }
/// ```
/// Examples/UIKitAdapter is a complete data source, drag delegate and drop delegate over it.
@MainActor
public final class TableModel<Replica: SyncReplica> {
    /// The type of the rows' values.
    public typealias Element = Replica.Value

    /// The peer whose list the table shows.
    public let peer: SyncPeer<Replica>
    /// The rows the table shows, in order (pending placeholders included: ``Row/isPending``).
    public private(set) var rows: [Row<Element>]

    /// Changes taken from the peer but not shown yet: the batch from ``rows`` to the list's rows as the
    /// last event left them, those rows, and the items of moves the table made itself (whose batch
    /// moves may be needless).
    struct Unshown {
        var change: ListChange
        var rows: [Row<Element>]
        var shownMoves: [ItemID] = []
    }

    private let events: ChangeEvents<Element>
    private let show: @MainActor (TableUpdate) -> Void
    /// Takes changes on the main actor as they arrive; released (and so stopped) with the model.
    private var observation: ChangeObservation?
    private var unshown: Unshown?
    /// The placeholder whose item identifier each committed row keeps.
    private var aliases: [RowID: PlaceholderID] = [:]

    /// A model of `peer`'s rows that hands every update for the table to `show`, on the main actor.
    ///
    /// `show` must apply the update to the table at once (`performBatchUpdates`, or a diffable
    /// snapshot of ``itemIdentifiers``); the model's ``rows`` are already the new ones when it runs. It
    /// is called while the model is alive; changes stop being observed when the model is released.
    /// - Complexity: O(n) for n rows, to copy them.
    public init(peer: SyncPeer<Replica>, show: @escaping @MainActor (TableUpdate) -> Void) {
        self.peer = peer
        self.show = show
        events = peer.changeEvents()
        rows = events.initialRows
        observation = ChangeObservation(
            Task { [weak self, events] in
                while await events.waitForEvents() {
                    guard let self else { return }
                    absorb(events.takeAvailable())
                    showUnshown()
                }
            })
    }

    /// The number of rows the table shows.
    public var count: Int { rows.count }

    /// Whether the row at `index` is a pending placeholder (draw it as loading).
    public func isPlaceholder(at index: Int) -> Bool { rows[index].isPending }

    /// The identifier of the row at `index` for a diffable data source: its ``Row/id``, except for a
    /// committed placeholder, which keeps the placeholder's identifier for as long as it is shown.
    /// - Complexity: O(1)
    public func itemIdentifier(at index: Int) -> ItemID { Self.item(of: rows[index], aliases) }

    /// The identifiers of all rows, in order (unique): the items of an `NSDiffableDataSourceSnapshot`.
    /// - Complexity: O(n)
    public var itemIdentifiers: [ItemID] { rows.map { Self.item(of: $0, aliases) } }

    /// Whether the list changed in ways the table does not show yet. Right after a reorder made in the
    /// table while other changes were arriving, the model shows them on the next main-actor turn.
    public var hasUnshownChanges: Bool { unshown != nil }

    /// Runs `body` on the list through the peer (one transaction), then takes every change delivered
    /// meanwhile, which includes this one, to be shown.
    func edit<Result: Sendable>(_ body: (ReplicatedList<Element>) -> Result) throws(TableEditError) -> Result {
        defer { absorb(events.takeAvailable()) }
        do {
            return try peer.edit(body)
        } catch {
            throw .notKept(error)
        }
    }

    /// Adds `events` to the changes not shown yet.
    /// - Complexity: O(n + k log k) per event for n rows and k entries.
    func absorb(_ events: [ChangeEvent<Element>]) {
        guard !events.isEmpty else { return }
        var next = unshown ?? Unshown(change: ListChange(), rows: rows)
        for event in events {
            event.apply(to: &next.rows)
            next.change = next.change.followed(by: event.change)
        }
        unshown = next
    }

    /// Records that the table itself moved its row from `source` to `destination` (it shows that now,
    /// and shows no other change yet).
    func recordShownMove(from source: Int, to destination: Int) {
        let item = itemIdentifier(at: source)
        let undo = ListChange(moved: [ListChange.Move(from: destination, to: source)])
        var next = unshown ?? Unshown(change: ListChange(), rows: rows)
        next.change = undo.followed(by: next.change)
        next.shownMoves.append(item)
        unshown = next
        rows.insert(rows.remove(at: source), at: destination)
    }

    /// Shows the changes not shown yet, if any; `commits` are the placeholders just committed, and the
    /// rows they became.
    func showUnshown(committed commits: [PlaceholderID: RowID] = [:]) {
        guard let update = adoptUnshown(committed: commits) else { return }
        show(update)
    }

    /// Makes the changes not shown yet the model's rows when the table shows them already (after its own
    /// move); returns whether it did.
    func adoptUnshownIfShown() -> Bool {
        guard let unshown, update(for: unshown, committed: [:]).update == nil else { return unshown == nil }
        return adoptUnshown() == nil
    }

    /// Makes the changes not shown yet the model's rows, and returns what to tell the table (nil when
    /// it shows them already).
    /// - Complexity: O(n + k log k) for n rows and k entries, times the commits and shown moves.
    func adoptUnshown(committed commits: [PlaceholderID: RowID] = [:]) -> TableUpdate? {
        guard let unshown else { return nil }
        let (update, aliases) = update(for: unshown, committed: commits)
        self.unshown = nil
        rows = unshown.rows
        self.aliases = aliases
        return update
    }

    /// What to tell the table about `unshown`, and the aliases afterwards.
    func update(
        for unshown: Unshown, committed commits: [PlaceholderID: RowID]
    ) -> (update: TableUpdate?, aliases: [RowID: PlaceholderID]) {
        var change = unshown.change
        var aliases = self.aliases
        for index in change.removed {
            if let row = rows[index].rowID { aliases[row] = nil }
        }
        if !commits.isEmpty || !unshown.shownMoves.isEmpty {
            // Only then are the whole lists of identifiers needed (O(n)).
            let oldItems = itemIdentifiers
            var replaced: [(old: Int, new: Int)] = []
            for (placeholder, row) in commits {
                guard let old = oldItems.firstIndex(of: .placeholder(placeholder)), change.removed.contains(old),
                    let new = unshown.rows.firstIndex(where: { $0.rowID == row }), change.inserted.contains(new)
                else { continue }  // the table never showed the placeholder, or no longer shows the row
                aliases[row] = placeholder
                replaced.append((old, new))
            }
            let newItems = unshown.rows.map { Self.item(of: $0, aliases) }
            for (old, new) in replaced {
                change = change.keepingItem(from: old, to: new, oldItems: oldItems, newItems: newItems)
            }
            for item in unshown.shownMoves {
                guard let new = newItems.firstIndex(of: item) else { continue }
                change = change.withoutNeedlessMove(to: new, oldItems: oldItems, newItems: newItems)
            }
        }
        guard !change.isEmpty else { return (nil, aliases) }
        let update = TableUpdate(
            change: change, reconfiguredItems: change.updated.map { Self.item(of: unshown.rows[$0], aliases) },
            count: unshown.rows.count)
        return (update, aliases)
    }

    /// The identifier of `row` under `aliases`.
    private static func item(of row: Row<Element>, _ aliases: [RowID: PlaceholderID]) -> ItemID {
        guard let id = row.rowID, let placeholder = aliases[id] else { return row.id }
        return .placeholder(placeholder)
    }
}
