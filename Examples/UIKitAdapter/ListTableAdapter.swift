#if canImport(UIKit)
    import Foundation
    import ListSync
    import ListSyncNetwork
    import ListSyncUI
    import UIKit

    /// A `UITableView`'s data source, drag delegate and drop delegate over a synced list of any
    /// `DragRepresentable` values (a `SyncPeer` of a list in memory or of a `DurableReplica`, saved and
    /// synced). Every decision is ListSync's (`TableModel`, tested on Linux): this class only converts
    /// index paths, item providers and batches.
    ///
    /// ```swift
    /// adapter = ListTableAdapter(tableView: tableView, peer: peer, policy: DropPolicy(loadingValue: "Loading…")) {
    ///     content, place in content.text = place
    /// }
    /// adapter.onError = { [weak self] error in self?.present(error) }
    /// ```
    @MainActor
    public final class ListTableAdapter<Replica: SyncReplica>: NSObject, UITableViewDataSource,
        UITableViewDragDelegate, UITableViewDropDelegate
    where Replica.Value: DragRepresentable {
        /// The type of the rows' values.
        public typealias Element = Replica.Value

        /// The rows the table shows, and what to tell it about each change.
        public let model: TableModel<Replica>
        /// The drop rules.
        public let policy: DropPolicy<Element>
        /// Called with every edit made in the table that did not happen, and every dropped item that
        /// did not become a row (with why).
        public var onError: ((TableEditError) -> Void)?
        /// Fills a row's cell content with its value.
        private let configure: (inout UIListContentConfiguration, Element) -> Void
        private static var cellIdentifier: String { "ListSyncRow" }

        /// Makes the adapter `tableView`'s data source, drag delegate and drop delegate, showing `peer`'s
        /// rows; `configure` fills a cell's content for a value (placeholders are then drawn dimmed, with
        /// a spinner). Keep a reference to the adapter: the table view does not.
        public init(
            tableView: UITableView, peer: SyncPeer<Replica>, policy: DropPolicy<Element>,
            configure: @escaping (inout UIListContentConfiguration, Element) -> Void
        ) {
            self.policy = policy
            self.configure = configure
            model = TableModel(peer: peer) { [weak tableView] update in
                guard let tableView else { return }
                ListTableAdapter.show(update, in: tableView)
            }
            super.init()
            tableView.register(UITableViewCell.self, forCellReuseIdentifier: Self.cellIdentifier)
            tableView.dataSource = self
            tableView.dragDelegate = self
            tableView.dropDelegate = self
            tableView.dragInteractionEnabled = true
            tableView.reloadData()
        }

        // MARK: Data source

        /// The rows the model holds.
        public func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { model.count }

        /// A cell for the row's value; a pending placeholder is dimmed and shows a spinner.
        public func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
            let cell = tableView.dequeueReusableCell(withIdentifier: Self.cellIdentifier, for: indexPath)
            var content = cell.defaultContentConfiguration()
            configure(&content, model.rows[indexPath.row].value)
            if model.isPlaceholder(at: indexPath.row) {
                content.textProperties.color = .secondaryLabel
                let spinner = UIActivityIndicatorView(style: .medium)
                spinner.startAnimating()
                cell.accessoryView = spinner
                cell.selectionStyle = .none
            } else {
                cell.accessoryView = nil
                cell.selectionStyle = .default
            }
            cell.contentConfiguration = content
            return cell
        }

        /// Rows reorder; placeholders do not.
        public func tableView(_ tableView: UITableView, canMoveRowAt indexPath: IndexPath) -> Bool {
            model.canMoveRow(at: indexPath.row)
        }

        /// The table shows the reorder already; the model moves the row in the list.
        public func tableView(
            _ tableView: UITableView, moveRowAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath
        ) {
            do {
                try model.moveRow(at: sourceIndexPath.row, to: destinationIndexPath.row)
            } catch {
                onError?(error)
            }
        }

        /// Every row can be deleted (a placeholder is withdrawn).
        public func tableView(_ tableView: UITableView, canEditRowAt indexPath: IndexPath) -> Bool { true }

        /// Swipe to delete.
        public func tableView(
            _ tableView: UITableView, commit editingStyle: UITableViewCell.EditingStyle, forRowAt indexPath: IndexPath
        ) {
            guard editingStyle == .delete else { return }
            do {
                try model.removeRow(at: indexPath.row)
            } catch {
                onError?(error)
            }
        }

        // MARK: Drag

        /// The selected rows when the touched row is selected, else that row.
        public func tableView(
            _ tableView: UITableView, itemsForBeginning session: UIDragSession, at indexPath: IndexPath
        ) -> [UIDragItem] {
            let selection = Set((tableView.indexPathsForSelectedRows ?? []).map(\.row))
            return model.dragItems(beginningAt: indexPath.row, selection: selection).map(Self.uiDragItem)
        }

        /// A row tapped during a drag joins it.
        public func tableView(
            _ tableView: UITableView, itemsForAddingTo session: UIDragSession, at indexPath: IndexPath, point: CGPoint
        ) -> [UIDragItem] {
            let dragged = Set(session.items.compactMap { ($0.localObject as? DragItem<Element>)?.row })
            return model.dragItem(addingRowAt: indexPath.row, to: dragged).map { [Self.uiDragItem($0)] } ?? []
        }

        private static func uiDragItem(_ item: DragItem<Element>) -> UIDragItem {
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
            model.dropProposal(for: dropItems(session), at: .gap(model.count), policy: policy).isAccepted
        }

        /// ListSync's proposal, on every movement.
        public func tableView(
            _ tableView: UITableView, dropSessionDidUpdate session: UIDropSession,
            withDestinationIndexPath destinationIndexPath: IndexPath?
        ) -> UITableViewDropProposal {
            let proposal = model.dropProposal(
                for: dropItems(session), at: target(destinationIndexPath), policy: policy)
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

        /// Performs the drop (the model shows it, placeholders included), then loads the placeholders;
        /// each commit or withdrawal is shown as it happens, and failures go to ``onError``.
        public func tableView(_ tableView: UITableView, performDropWith coordinator: UITableViewDropCoordinator) {
            let result: DropResult<Element>
            do {
                result = try model.performDrop(
                    dropItems(coordinator.session), at: target(coordinator.destinationIndexPath), policy: policy)
            } catch {
                onError?(error)
                return
            }
            guard !result.pendingLoads.isEmpty else { return }
            Task { [weak self, model] in
                await model.completeLoads(result.pendingLoads) { error in self?.onError?(error) }
            }
        }

        /// The place in the table under the finger: a row when the policy merges drops into rows, else
        /// the gap before it; the end below the last row.
        private func target(_ indexPath: IndexPath?) -> DropTarget {
            guard let indexPath else { return .gap(model.count) }
            return policy.mergeIntoRow == nil ? .gap(indexPath.row) : .row(indexPath.row)
        }

        private func dropItems(_ session: UIDropSession) -> [DropItem<Element>] {
            session.items.map { item in
                if let dragged = item.localObject as? DragItem<Element> { return DropItem(.dragged(dragged)) }
                let provider = SendableProvider(provider: item.itemProvider)
                let types = item.itemProvider.registeredTypeIdentifiers.map(TypeIdentifier.init(rawValue:))
                return DropItem(.provider(typeIdentifiers: types) { type in try await provider.load(type) })
            }
        }

        /// Shows `update` as ``TableUpdate`` describes it: one batch, then the reconfigured rows.
        private static func show(_ update: TableUpdate, in tableView: UITableView) {
            func paths(_ rows: CompactArray<Int>) -> [IndexPath] { rows.map { IndexPath(row: $0, section: 0) } }
            tableView.performBatchUpdates {
                tableView.deleteRows(at: paths(update.change.removed), with: .automatic)
                tableView.insertRows(at: paths(update.change.inserted), with: .automatic)
                for move in update.change.moved {
                    tableView.moveRow(
                        at: IndexPath(row: move.from, section: 0), to: IndexPath(row: move.to, section: 0))
                }
            }
            tableView.reconfigureRows(at: paths(update.change.updated))
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
