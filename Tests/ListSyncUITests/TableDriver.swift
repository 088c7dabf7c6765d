import ListSync
import ListSyncNetwork
import ListSyncUI
import Testing

/// Drives a table over a ``TableModel`` the way a user and UIKit would, at random: reorders the table
/// makes itself, swipe deletions, drags within the table, drops from elsewhere (placeholders included)
/// and the loads that commit or withdraw them; checks each step as it goes.
@MainActor
final class TableDriver {
    /// A drop's placeholder still loading, and what its load brings (nil: data that does not decode).
    struct Pending {
        let load: DropResult<String>.PendingLoad
        let value: String?
    }

    let model: TableModel<ReplicatedList<String>>
    let table: RecordingTable<ReplicatedList<String>>
    /// Merges one dropped value into a row, so drops "into" a row happen too.
    let policy = DropPolicy<String>(loadingValue: "Loading…", mergeIntoRow: { row, dropped in row + "+" + dropped })
    private(set) var pending: [Pending] = []
    /// Load failures reported, and those expected.
    private(set) var failures = 0
    private(set) var expectedFailures = 0
    /// Reorders the table made while other changes were arriving (shown on the next turn), and commits.
    private(set) var correctedMoves = 0
    private(set) var commits = 0

    init(_ model: TableModel<ReplicatedList<String>>, _ table: RecordingTable<ReplicatedList<String>>) {
        self.model = model
        self.table = table
    }

    /// One random edit of `list` (one that code outside the table, or a peer, makes).
    nonisolated static func randomEdit(_ list: ReplicatedList<String>, label: String, using random: inout SplitMix64) {
        let confirmed = list.indices.filter { !list[$0].isPending }
        switch Int.random(in: 0..<4, using: &random) {
        case 0 where !confirmed.isEmpty:
            list.remove(at: confirmed.randomElement(using: &random)!)
        case 1 where !confirmed.isEmpty:
            list.move(
                from: confirmed.randomElement(using: &random)!, to: Int.random(in: 0..<list.count, using: &random))
        case 2 where !confirmed.isEmpty:
            list.updateValue(label, at: confirmed.randomElement(using: &random)!)
        default:
            list.insert(label, at: Int.random(in: 0...list.count, using: &random))
        }
    }

    /// A random place in the table.
    private func randomTarget(using random: inout SplitMix64) -> DropTarget {
        if model.count > 0 && Bool.random(using: &random) {
            return .row(Int.random(in: 0..<model.count, using: &random))
        }
        return .gap(Int.random(in: 0...model.count, using: &random))
    }

    /// One random action in the table; `label` names the values it makes.
    func act(label: String, using random: inout SplitMix64) async throws {
        switch Int.random(in: 0..<6, using: &random) {
        case 0, 1:
            let movable = model.rows.indices.filter(model.canMoveRow(at:))
            guard model.count > 1, let source = movable.randomElement(using: &random) else { return }
            let destination = Int.random(in: 0..<model.count, using: &random)
            table.userMovesRow(from: source, to: destination)
            try model.moveRow(at: source, to: destination)
            if model.hasUnshownChanges { correctedMoves += 1 }
            #expect(table.mirror.rows == table.cells(of: model), "the table shows its own move")
        case 2:
            guard model.count > 0 else { return }
            try model.removeRow(at: Int.random(in: 0..<model.count, using: &random))
        case 3:
            guard model.count > 0 else { return }
            let start = Int.random(in: 0..<model.count, using: &random)
            let selection = Set(model.rows.indices.filter { _ in Int.random(in: 0..<4, using: &random) == 0 })
            let items = model.dragItems(beginningAt: start, selection: selection).map { DropItem(.dragged($0)) }
            _ = try model.performDrop(items, at: randomTarget(using: &random), policy: policy)
        case 4:
            try dropFromElsewhere(label: label, using: &random)
        default:
            await completeSomeLoads(using: &random)
        }
    }

    /// Drops one to three items from elsewhere: values at hand, and data to load that does or does
    /// not decode.
    private func dropFromElsewhere(label: String, using random: inout SplitMix64) throws {
        var items: [DropItem<String>] = []
        var loads: [String?] = []
        for index in 0..<Int.random(in: 1...3, using: &random) {
            let value = "\(label).\(index)"
            switch Int.random(in: 0..<3, using: &random) {
            case 0: items.append(DropItem(.value(value)))
            case 1:
                items.append(DropItem(.provider(typeIdentifiers: [.utf8PlainText]) { _ in Array(value.utf8) }))
                loads.append(value)
            default:
                items.append(DropItem(.provider(typeIdentifiers: [.utf8PlainText]) { _ in [0xFF] }))
                loads.append(nil)
            }
        }
        let result = try model.performDrop(items, at: randomTarget(using: &random), policy: policy)
        pending += zip(result.pendingLoads, loads).map { Pending(load: $0, value: $1) }
    }

    /// Completes one or two of the pending loads, and checks that a committed placeholder is the same
    /// item, now a row with the loaded value.
    func completeSomeLoads(using random: inout SplitMix64) async {
        guard !pending.isEmpty else { return }
        pending.shuffle(using: &random)
        let taken = Array(pending.suffix(Int.random(in: 1...2, using: &random)))
        pending.removeLast(taken.count)
        await complete(taken)
    }

    /// Completes every pending load.
    func completeAllLoads() async {
        let taken = pending
        pending = []
        await complete(taken)
    }

    private func complete(_ taken: [Pending]) async {
        let shown = Set(taken.map(\.load.placeholder).filter { model.itemIdentifiers.contains(.placeholder($0)) })
        expectedFailures += taken.filter { $0.value == nil && shown.contains($0.load.placeholder) }.count
        await model.completeLoads(taken.map(\.load)) { error in
            failures += 1
            guard case .loadFailed(let placeholder, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(taken.contains { $0.load.placeholder == placeholder && $0.value == nil })
        }
        for item in taken where item.value != nil && shown.contains(item.load.placeholder) {
            commits += 1
            let index = model.itemIdentifiers.firstIndex(of: .placeholder(item.load.placeholder))
            #expect(
                index.map { !model.isPlaceholder(at: $0) && model.rows[$0].value == item.value } == true,
                "placeholder \(item.load.placeholder) became a row of the same item")
        }
    }
}
