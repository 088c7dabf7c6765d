import Foundation
import ListSync

/// The model of Apple's table view drag-and-drop sample: place names in a replicated list.
///
/// Storage is `private(set)`; moves, adds and drops go through the model and return the batch for the
/// table view.
final class PlacesModel {
    /// The place names, shared with other replicas.
    private(set) var placeNames: ReplicatedList<String>
    /// What drops into the list may do.
    let policy = DropPolicy<String>(loadingValue: "Loading…")
    /// The selected rows.
    var selection: Set<Int> = []

    /// A model for replica `replica`, starting from `names`.
    init(replica: ReplicaID, names: [String] = []) {
        placeNames = ReplicatedList(replicaID: replica)
        placeNames.append(contentsOf: names)
    }

    /// Moves the row at `source` so it ends at `destination` (UIKit's `moveRowAt:to:` indexes).
    @discardableResult
    func moveItem(at source: Int, to destination: Int) -> ListChange {
        placeNames.move(from: source, to: destination)
    }

    /// Inserts `name` at `index`.
    @discardableResult
    func addItem(_ name: String, at index: Int) -> ListChange {
        placeNames.insert(name, at: index)
    }

    /// The drag items for a drag beginning on the row at `index`: the selection when that row is
    /// selected; each carries plain text and the row itself.
    func dragItems(for index: Int) -> [DragItem<String>] {
        DragSession(beginningAt: index, selection: selection, of: placeNames)?.items ?? []
    }

    /// Whether a drop session offers something the list can read.
    func canHandle(_ items: [DropItem<String>]) -> Bool {
        placeNames.dropProposal(for: items, at: .gap(placeNames.count), policy: policy).isAccepted
    }

    /// Drops `items` before the row at `index`; returns the batch.
    @discardableResult
    func drop(_ items: [DropItem<String>], at index: Int) throws(RepresentationError) -> ListChange {
        let proposal = placeNames.dropProposal(for: items, at: .gap(index), policy: policy)
        return try placeNames.performDrop(items, proposal: proposal, policy: policy).change
    }

    /// Exchanges changes with `other` both ways.
    func sync(with other: PlacesModel) throws(MergeError) {
        try other.placeNames.merge(placeNames.changes(since: other.placeNames.versionVector))
        try placeNames.merge(other.placeNames.changes(since: placeNames.versionVector))
    }
}
