import Foundation
import ListSync
import ListSyncNetwork
import Observation

/// A peer's list on the main actor, for SwiftUI: `rows` is what `List` and `ForEach` show, kept equal
/// to the list by every change, local or remote, and the edits are the ones `onMove` and `onDelete` call.
///
/// ```swift
/// @State var model = ListModel(peer: peer)          // a SyncPeer over a list or a store
/// List {
///     ForEach(model.rows) { row in
///         TextField("Title", text: Binding(get: { model[value: row.id] ?? row.value },
///                                          set: { model[value: row.id] = $0 }))
///     }
///     .onMove { model.move(fromOffsets: $0, toOffset: $1) }
///     .onDelete { model.remove(atOffsets: $0) }
/// }
/// ```
/// ``presences`` shows who else is here (``SyncPeer/setPresence(_:)``): mark the rows they select with
/// `model.selectedByOthers[row.id]`.
///
/// Offsets are those of `rows`, as SwiftUI passes them. `rows` may trail the list by changes that have
/// not reached the main actor yet; an edit therefore names rows by identity, applies to the list as it
/// is, and then takes every change that happened until and including it, so `rows` shows the edit at once.
/// An edit that could not be kept (a store that could not log it) changes nothing and is reported in
/// ``lastError``.
@MainActor @Observable
public final class ListModel<Replica: SyncReplica> {
    /// The rows to show, pending placeholders included.
    public private(set) var rows: [Row<Replica.Value>]
    /// Why the last edit that failed was not kept; nil until one fails (set it to nil once shown).
    public var lastError: Replica.CommitFailure?
    /// The other peers' presences, by replica, kept current as they change (``SyncPeer/presenceUpdates()``).
    public private(set) var presences: [ReplicaID: Presence] = [:]

    /// The peer whose list this is.
    @ObservationIgnored public let peer: SyncPeer<Replica>
    @ObservationIgnored private let events: ChangeEvents<Replica.Value>
    /// Takes remote changes on the main actor; released (and so stopped) with the model.
    @ObservationIgnored private var observation: ChangeObservation?

    /// A model of `peer`'s list, kept up to date until the peer stops or the model is released.
    public init(peer: SyncPeer<Replica>) {
        self.peer = peer
        let events = peer.changeEvents()
        self.events = events
        rows = events.initialRows
        observation = events.observe { [weak self] event in self?.show([event]) }
        let updates = peer.presenceUpdates()
        // Ends with the peer, or at the first change after the model is released.
        Task { [weak self] in
            for await presences in updates {
                guard let self else { return }
                self.presences = presences
            }
        }
    }

    /// The names of the other peers who select each row (a row no one selects is absent), for marks.
    public var selectedByOthers: [ItemID: [String]] {
        var names: [ItemID: [String]] = [:]
        for presence in presences.values {
            for row in presence.selection { names[.row(row), default: []].append(presence.name) }
        }
        return names.mapValues { $0.sorted() }
    }

    /// The value of the row `id` as shown, or nil when it is not shown; setting it edits that row
    /// (``ReplicatedList/updateValue(_:forRow:)``), and setting it on a placeholder or a row deleted
    /// meanwhile does nothing: the get and set of a SwiftUI `Binding` for a control.
    public subscript(value id: ItemID) -> Replica.Value? {
        get { rows.first { $0.id == id }?.value }
        set {
            guard let newValue, let row = id.rowID else { return }
            edit { list in _ = list.updateValue(newValue, forRow: row) }
        }
    }

    /// Moves the rows at `source` (offsets in `rows`) before the row at `destination`, as `onMove` asks.
    public func move(fromOffsets source: IndexSet, toOffset destination: Int) {
        let moving = source.compactMap { rows[$0].rowID }
        let anchors = rows.indices[destination...].filter { !source.contains($0) }.compactMap { rows[$0].rowID }
        edit { list in
            let offsets = IndexSet(moving.compactMap(list.index(forRow:)))
            guard !offsets.isEmpty else { return }
            list.move(fromOffsets: offsets, toOffset: Self.index(before: anchors, in: list))
        }
    }

    /// Deletes the rows at `offsets` (offsets in `rows`), as `onDelete` asks; placeholders are skipped.
    public func remove(atOffsets offsets: IndexSet) {
        let removing = offsets.compactMap { rows[$0].rowID }
        edit { list in list.remove(atOffsets: IndexSet(removing.compactMap(list.index(forRow:)))) }
    }

    /// Inserts `value` as a new row before the row now at `index` in `rows` (`rows.count`: at the end).
    public func insert(_ value: Replica.Value, at index: Int) {
        let anchors = rows[index...].compactMap(\.rowID)
        edit { list in list.insert(value, at: Self.index(before: anchors, in: list)) }
    }

    /// Appends `value` as a new row at the end.
    public func append(_ value: Replica.Value) { insert(value, at: rows.count) }

    /// Runs `body` on the list through the peer (one transaction), then shows every change so far.
    public func edit(_ body: (ReplicatedList<Replica.Value>) -> Void) {
        do {
            try peer.edit { list in body(list) }
        } catch let error as Replica.CommitFailure {
            lastError = error
        } catch {
            preconditionFailure("an edit that cannot throw threw \(error)")
        }
        show(events.takeAvailable())
    }

    /// The index in `list` of the first of `anchors` it still shows (the end when none): where an edit
    /// made before those rows of `rows` goes.
    private static func index(before anchors: [RowID], in list: ReplicatedList<Replica.Value>) -> Int {
        anchors.lazy.compactMap(list.index(forRow:)).first ?? list.count
    }

    /// Applies `taken`, the next events, to `rows`, in order.
    private func show(_ taken: [ChangeEvent<Replica.Value>]) {
        guard !taken.isEmpty else { return }
        var updated = rows
        for event in taken { event.apply(to: &updated) }
        rows = updated
    }
}
