#if canImport(UIKit)
    import Foundation
    import ListSync
    import UIKit

    /// A `UITableView`'s drag and drop over a replicated list of strings. Every decision is ListSync's:
    /// this class only converts index paths, item providers and change batches.
    @MainActor
    public final class PlacesTableAdapter: NSObject, UITableViewDragDelegate, UITableViewDropDelegate {
        /// The list the table shows.
        public let list: ReplicatedList<String>
        /// The drop rules.
        public let policy: DropPolicy<String>

        /// An adapter for `list`; set it as the table view's `dragDelegate` and `dropDelegate`.
        public init(list: ReplicatedList<String>, policy: DropPolicy<String> = DropPolicy(loadingValue: "Loading…")) {
            self.list = list
            self.policy = policy
        }

        // MARK: Drag

        /// The selected rows when the touched row is selected, else that row.
        public func tableView(
            _ tableView: UITableView, itemsForBeginning session: UIDragSession, at indexPath: IndexPath
        ) -> [UIDragItem] {
            let selection = Set((tableView.indexPathsForSelectedRows ?? []).map(\.row))
            let items = DragSession(beginningAt: indexPath.row, selection: selection, of: list)?.items ?? []
            return items.map(Self.uiDragItem)
        }

        /// A row tapped during a drag joins it.
        public func tableView(
            _ tableView: UITableView, itemsForAddingTo session: UIDragSession, at indexPath: IndexPath, point: CGPoint
        ) -> [UIDragItem] {
            let dragged = Set(session.items.compactMap { ($0.localObject as? DragItem<String>)?.row })
            guard let item = DragSession(beginningAt: indexPath.row, selection: [], of: list)?.items.first,
                !dragged.contains(item.row)
            else { return [] }
            return [Self.uiDragItem(item)]
        }

        private static func uiDragItem(_ item: DragItem<String>) -> UIDragItem {
            let provider = NSItemProvider()
            for representation in item.representations {
                let data = Data(representation.data)
                provider.registerDataRepresentation(
                    forTypeIdentifier: representation.typeIdentifier.rawValue, visibility: .all
                ) { completion in
                    completion(data, nil)
                    return nil
                }
            }
            let dragItem = UIDragItem(itemProvider: provider)
            dragItem.localObject = item
            return dragItem
        }

        // MARK: Drop

        /// Whether anything in the session is readable.
        public func tableView(_ tableView: UITableView, canHandle session: UIDropSession) -> Bool {
            list.dropProposal(for: dropItems(session), at: .gap(list.count), policy: policy).isAccepted
        }

        /// ListSync's proposal, on every movement.
        public func tableView(
            _ tableView: UITableView, dropSessionDidUpdate session: UIDropSession,
            withDestinationIndexPath destinationIndexPath: IndexPath?
        ) -> UITableViewDropProposal {
            let proposal = list.dropProposal(for: dropItems(session), at: target(destinationIndexPath), policy: policy)
            let operation: UIDropOperation =
                switch proposal.operation {
                case .cancel: .cancel
                case .forbidden: .forbidden
                case .copy: .copy
                case .move: .move
                }
            let intent: UITableViewDropProposal.Intent =
                proposal.intent == .insertIntoDestination
                ? .insertIntoDestinationIndexPath : .insertAtDestinationIndexPath
            return UITableViewDropProposal(operation: operation, intent: intent)
        }

        /// Performs the drop, applies its batch, then loads placeholders and applies each commit or removal.
        public func tableView(_ tableView: UITableView, performDropWith coordinator: UITableViewDropCoordinator) {
            let items = dropItems(coordinator.session)
            let proposal = list.dropProposal(
                for: items, at: target(coordinator.destinationIndexPath), policy: policy)
            // Malformed data at hand throws before anything changes: the drop then simply does nothing.
            guard let result = try? list.performDrop(items, proposal: proposal, policy: policy) else { return }
            Self.apply(result.change, to: tableView)
            guard !result.pendingLoads.isEmpty else { return }
            Task { @MainActor in
                await list.completeLoads(result.pendingLoads) { _, change in Self.apply(change, to: tableView) }
            }
        }

        private func target(_ indexPath: IndexPath?) -> DropTarget {
            guard let indexPath else { return .gap(list.count) }
            return policy.mergeIntoRow == nil ? .gap(indexPath.row) : .row(indexPath.row)
        }

        private func dropItems(_ session: UIDropSession) -> [DropItem<String>] {
            session.items.map { item in
                if let dragged = item.localObject as? DragItem<String> { return DropItem(.dragged(dragged)) }
                let provider = SendableProvider(provider: item.itemProvider)
                let types = item.itemProvider.registeredTypeIdentifiers.map(TypeIdentifier.init(rawValue:))
                return DropItem(.provider(typeIdentifiers: types) { type in try await provider.load(type) })
            }
        }

        /// Applies a batch exactly as ``ListChange`` describes it.
        private static func apply(_ change: ListChange, to tableView: UITableView) {
            func paths(_ rows: CompactArray<Int>) -> [IndexPath] { rows.map { IndexPath(row: $0, section: 0) } }
            tableView.performBatchUpdates {
                tableView.deleteRows(at: paths(change.removed), with: .automatic)
                tableView.insertRows(at: paths(change.inserted), with: .automatic)
                for move in change.moved {
                    tableView.moveRow(
                        at: IndexPath(row: move.from, section: 0), to: IndexPath(row: move.to, section: 0))
                }
            }
            tableView.reconfigureRows(at: paths(change.updated))
        }
    }

    /// An item provider crossing into the load task.
    ///
    /// `@unchecked Sendable` is safe: the provider is only used to call `loadDataRepresentation`, which
    /// `NSItemProvider` documents as callable from any thread, and it is never mutated after the drop.
    private struct SendableProvider: @unchecked Sendable {
        let provider: NSItemProvider

        /// Loads the data of `type`.
        func load(_ type: TypeIdentifier) async throws -> [UInt8] {
            try await withCheckedThrowingContinuation { continuation in
                _ = provider.loadDataRepresentation(forTypeIdentifier: type.rawValue) { data, error in
                    if let data {
                        continuation.resume(returning: [UInt8](data))
                    } else {
                        continuation.resume(throwing: error ?? CocoaError(.fileReadUnknown))
                    }
                }
            }
        }
    }
#endif
