import ListSync

/// A headless table view: drives a replica's drag-and-drop API the way UIKit's table view delegates
/// would, and keeps a mirrored array in step by applying every batch as `performBatchUpdates` does.
///
/// Every step checks the replica's invariants and that the mirror equals the replica's rows.
@MainActor
public final class TableHarness<Element: DragRepresentable & Codable & Equatable> {
    /// The replica shown by the table.
    public let list: ReplicatedList<Element>
    /// The drop rules.
    public var policy: DropPolicy<Element>
    /// The selected row indexes.
    public var selection: Set<Int> = []
    /// The table's rows, as batches left them.
    public private(set) var mirror: BatchMirror<Element>

    /// A table showing `list`.
    public init(list: ReplicatedList<Element>, policy: DropPolicy<Element>) {
        self.list = list
        self.policy = policy
        mirror = BatchMirror(Array(list))
    }

    /// The values the table shows.
    public var values: [Element] { mirror.rows.map(\.value) }

    /// Applies a batch of the replica to the mirror and checks both (as the data source's batch update).
    public func apply(_ change: ListChange) throws {
        list._checkInvariants()
        try mirror.apply(change, from: list)
    }

    /// `tableView(_:itemsForBeginning:at:)`: a drag on the row at `index`.
    public func beginDrag(at index: Int) -> DragSession<Element>? {
        DragSession(beginningAt: index, selection: selection, of: list)
    }

    /// `tableView(_:dropSessionDidUpdate:withDestinationIndexPath:)`, for each position the finger passes.
    public func proposals(for items: [DropItem<Element>], along targets: [DropTarget?]) -> [DropProposal] {
        targets.map { list.dropProposal(for: items, at: $0, policy: policy) }
    }

    /// `tableView(_:performDropWith:)`: performs the drop at `target` and applies its batches.
    @discardableResult
    public func drop(_ items: [DropItem<Element>], at target: DropTarget) throws -> DropResult<Element> {
        let proposal = list.dropProposal(for: items, at: target, policy: policy)
        let result = try list.performDrop(items, proposal: proposal, policy: policy)
        try apply(result.change)
        return result
    }

    /// Loads a drop's placeholders, committing or deleting each as UIKit's placeholder context would,
    /// and applies each batch as it is reported; returns the outcomes in the order they happened.
    public func completeLoads(_ result: DropResult<Element>) async throws -> [LoadOutcome] {
        var outcomes: [LoadOutcome] = []
        var failure: (any Error)?
        await list.completeLoads(result.pendingLoads) { outcome, change in
            outcomes.append(outcome)
            do {
                try apply(change)
            } catch {
                failure = failure ?? error
            }
        }
        if let failure { throw failure }
        return outcomes
    }

    /// Merges what `peer` has and this replica lacks, and applies the batch.
    public func merge(from peer: ReplicatedList<Element>) throws {
        try apply(list.merge(peer.changes(since: list.versionVector)))
    }
}
