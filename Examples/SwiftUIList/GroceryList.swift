#if canImport(SwiftUI)
    import ListSync
    import ListSyncNetwork
    import ListSyncUI
    import SwiftUI

    /// A shared grocery list: rows move with a drag, delete with a swipe, rename in place, and change
    /// when another device edits them. All of the logic is `ListModel`'s, tested on every platform.
    public struct GroceryList<Replica: SyncReplica>: View where Replica.Value == String {
        @State private var model: ListModel<Replica>
        @State private var newItem = ""

        /// A list showing `peer`'s rows (a `SyncPeer` over a `ReplicatedList` or a `DurableReplica`).
        public init(peer: SyncPeer<Replica>) {
            _model = State(initialValue: ListModel(peer: peer))
        }

        public var body: some View {
            List {
                ForEach(model.rows) { row in
                    if row.isPending {
                        Text(row.value).foregroundStyle(.secondary)
                    } else {
                        TextField(
                            "Item",
                            text: Binding(
                                get: { model[value: row.id] ?? row.value }, set: { model[value: row.id] = $0 }))
                    }
                }
                .onMove { model.move(fromOffsets: $0, toOffset: $1) }
                .onDelete { model.remove(atOffsets: $0) }
                TextField("New item", text: $newItem)
                    .onSubmit {
                        guard !newItem.isEmpty else { return }
                        model.append(newItem)
                        newItem = ""
                    }
            }
            .alert(
                "The change could not be saved",
                isPresented: Binding(get: { model.lastError != nil }, set: { if !$0 { model.lastError = nil } }),
                actions: { Button("OK") {} },
                message: { Text(model.lastError.map { "\($0)" } ?? "") })
        }
    }
#endif
