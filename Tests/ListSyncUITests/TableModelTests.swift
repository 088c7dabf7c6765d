import Foundation
import ListSync
import ListSyncNetwork
import ListSyncUI
import TestSupport
import Testing

/// A table view fed only by a ``TableModel``'s updates, applied as UIKit applies them, shows exactly the
/// list's rows through reorders the table made itself, deletions, drops, placeholders committed and
/// withdrawn, and changes arriving from peers; committed placeholders keep their item identifiers.
@Suite(.timeLimit(.minutes(5)))
@MainActor
struct TableModelTests {
    typealias Peer = SyncPeer<ReplicatedList<String>>

    /// A peer (not listening, not connected) of replica `id` whose list holds `values`.
    static func makePeer<Replica: SyncReplica>(_ replica: Replica) throws -> SyncPeer<Replica> {
        var configuration = PeerConfiguration(
            sync: SyncSettings(document: "table", secret: Array(repeating: 7, count: 32)))
        configuration.log = { _ in }
        return try SyncPeer(replica: replica, configuration: configuration)
    }

    static func makePeer(_ id: UInt64, values: [String]) throws -> Peer {
        let list = ReplicatedList<String>(replicaID: ReplicaID(id))
        list.append(contentsOf: values)
        return try makePeer(list)
    }

    /// A model of `peer` shown by a recording table.
    static func makeTable<Replica: SyncReplica>(
        _ peer: SyncPeer<Replica>
    ) -> (TableModel<Replica>, RecordingTable<Replica>) where Replica.Value: Equatable {
        let table = RecordingTable<Replica>()
        let model = TableModel(peer: peer) { [table] update in table.show(update) }
        table.load(model)
        return (model, table)
    }

    /// Waits until the model has shown every change of the list, then checks that the table shows the
    /// list's rows, with the model's item identifiers.
    static func settle<Replica: SyncReplica>(
        _ model: TableModel<Replica>, _ table: RecordingTable<Replica>, _ context: String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws where Replica.Value: Equatable {
        let deadline = ContinuousClock.now + .seconds(3)
        while model.hasUnshownChanges || model.rows != model.peer.read({ Array($0) }) {
            try #require(
                ContinuousClock.now < deadline,
                """
                the model did not catch up \(context) (unshown: \(model.hasUnshownChanges)): \
                \(model.rows.map(\.id)) \(model.rows.map(\.value)), the list: \(model.peer.read { $0.map(\.id) }) \
                \(model.peer.read { $0.map(\.value) }), last updates \(table.updates.suffix(3).map(\.change))
                """, sourceLocation: sourceLocation)
            try await Task.sleep(for: .milliseconds(1))
        }
        try #require(table.failures.isEmpty, "\(context): \(table.failures)", sourceLocation: sourceLocation)
        try #require(
            table.mirror.rows == table.cells(of: model), "\(context): the table differs from the model",
            sourceLocation: sourceLocation)
        try #require(
            table.mirror.rows.map(\.value) == model.peer.read({ $0.map(\.value) }),
            "\(context): the table differs from the list", sourceLocation: sourceLocation)
    }

    /// The values the list holds.
    static func values<Replica: SyncReplica>(_ peer: SyncPeer<Replica>) -> [Replica.Value] {
        peer.read { $0.map(\.value) }
    }

    /// An item that loads `data` as UTF-8 text (or throws `failure`).
    static func loading(_ data: [UInt8], failure: (any Error)? = nil) -> DropItem<String> {
        DropItem(
            .provider(typeIdentifiers: [.utf8PlainText]) { _ in
                if let failure { throw failure }
                return data
            })
    }

    static let policy = DropPolicy(loadingValue: "Loading…")

    @Test func aReorderTheTableShowsIsNotShownAgain() async throws {
        let peer = try Self.makePeer(1, values: ["a", "b", "c", "d"])
        defer { peer.stop() }
        let (model, table) = Self.makeTable(peer)
        table.userMovesRow(from: 0, to: 2)
        try model.moveRow(at: 0, to: 2)
        #expect(table.updates.isEmpty)
        #expect(!model.hasUnshownChanges)
        #expect(Self.values(peer) == ["b", "c", "a", "d"])
        #expect(table.mirror.rows == table.cells(of: model))
        try await Self.settle(model, table)
        #expect(table.updates.isEmpty)
    }

    @Test func aReorderWhileChangesArriveIsCorrectedOnTheNextTurn() async throws {
        let peer = try Self.makePeer(1, values: ["a", "b", "c", "d"])
        defer { peer.stop() }
        let (model, table) = Self.makeTable(peer)
        peer.edit { list in list.insert("x", at: 0) }  // not taken yet: the table does not show it
        table.userMovesRow(from: 0, to: 2)
        try model.moveRow(at: 0, to: 2)
        #expect(table.updates.isEmpty, "nothing is shown inside the table's callback")
        #expect(model.hasUnshownChanges)
        #expect(table.mirror.rows == table.cells(of: model))
        try await Self.settle(model, table)
        #expect(Self.values(peer) == ["x", "b", "c", "a", "d"])
        #expect(table.updates.map(\.change) == [ListChange(inserted: [0])], "the row the table moved moves no more")
    }

    @Test func aMoveTheReplicaCannotKeepIsUndone() async throws {
        let replica = FlakyReplica(1, values: ["a", "b", "c"])
        let peer = try Self.makePeer(replica)
        defer { peer.stop() }
        let (model, table) = Self.makeTable(peer)
        replica.failing.store(true, ordering: .sequentiallyConsistent)
        table.userMovesRow(from: 0, to: 2)
        #expect {
            try model.moveRow(at: 0, to: 2)
        } throws: { error in
            guard case .notKept(let cause) = error as? TableEditError else { return false }
            return cause is FlakyReplica.NotLogged
        }
        try await Self.settle(model, table)
        #expect(table.mirror.rows.map(\.value) == ["a", "b", "c"])
        #expect(table.updates.map(\.change) == [ListChange(moved: [ListChange.Move(from: 2, to: 0)])])
        #expect {
            try model.performDrop([DropItem(.value("z"))], at: .gap(0), policy: Self.policy)
        } throws: { error in
            guard case .notKept = error as? TableEditError else { return false }
            return true
        }
        try await Self.settle(model, table)
        #expect(table.updates.count == 1)
    }

    @Test func changesKeepArrivingAfterTheModelTookSomeItself() async throws {
        let peer = try Self.makePeer(1, values: ["a"])
        defer { peer.stop() }
        let (model, table) = Self.makeTable(peer)
        for round in 0..<20 {
            try await Task.sleep(for: .milliseconds(1))  // the model's observation waits
            peer.edit { list in list.append("other \(round)") }  // wakes it
            try model.removeRow(at: 0)  // takes that change with its own, before the observation looks
            try await Task.sleep(for: .milliseconds(1))
            peer.edit { list in list.append("later \(round)") }  // still shown
            try await Self.settle(model, table, "round \(round)")
        }
    }

    @Test func aCommitTheReplicaCannotKeepIsReported() async throws {
        let replica = FlakyReplica(1, values: ["a", "b"])
        let peer = try Self.makePeer(replica)
        defer { peer.stop() }
        let (model, table) = Self.makeTable(peer)
        let drop = try model.performDrop([Self.loading(Array("Lisbon".utf8))], at: .gap(1), policy: Self.policy)
        replica.failing.store(true, ordering: .sequentiallyConsistent)
        var failures: [TableEditError] = []
        await model.completeLoads(drop.pendingLoads) { failures.append($0) }
        #expect(failures.count == 1)
        if case .notKept(let cause) = failures.first {
            #expect(cause is FlakyReplica.NotLogged)
        } else {
            Issue.record("expected notKept, got \(failures)")
        }
        try await Self.settle(model, table)
        // This replica refuses the withdrawal too: the placeholder stays until it can be removed.
        #expect(model.isPlaceholder(at: 1))
        replica.failing.store(false, ordering: .sequentiallyConsistent)
        try model.removeRow(at: 1)
        try await Self.settle(model, table)
        #expect(Self.values(peer) == ["a", "b"])
    }

    @Test func aCommittedPlaceholderKeepsItsItemIdentifier() async throws {
        let peer = try Self.makePeer(1, values: ["a", "b", "c"])
        defer { peer.stop() }
        let (model, table) = Self.makeTable(peer)
        let drop = try model.performDrop([Self.loading(Array("Lisbon".utf8))], at: .gap(1), policy: Self.policy)
        let load = try #require(drop.pendingLoads.first)
        #expect(table.updates.map(\.change) == [ListChange(inserted: [1])])
        #expect(model.isPlaceholder(at: 1))
        #expect(model.itemIdentifier(at: 1) == .placeholder(load.placeholder))
        var failures: [TableEditError] = []
        await model.completeLoads(drop.pendingLoads) { failures.append($0) }
        #expect(failures.isEmpty)
        let commit = try #require(table.updates.last)
        #expect(commit.change == ListChange(updated: [1]), "a reconfigure, not a delete and an insert")
        #expect(commit.reconfiguredItems == [.placeholder(load.placeholder)])
        #expect(!model.isPlaceholder(at: 1))
        #expect(model.rows[1].value == "Lisbon")
        #expect(model.rows[1].rowID != nil)
        #expect(model.itemIdentifier(at: 1) == .placeholder(load.placeholder))
        try await Self.settle(model, table)

        // The item keeps its identifier when the table moves it, until it is deleted.
        table.userMovesRow(from: 1, to: 0)
        try model.moveRow(at: 1, to: 0)
        #expect(model.itemIdentifier(at: 0) == .placeholder(load.placeholder))
        try model.removeRow(at: 0)
        #expect(table.updates.last?.change == ListChange(removed: [0]))
        #expect(!model.itemIdentifiers.contains(.placeholder(load.placeholder)))
        try await Self.settle(model, table)
        #expect(Self.values(peer) == ["a", "b", "c"])
    }

    @Test func aCommitAmongOtherChangesIsStillAReconfigure() async throws {
        let peer = try Self.makePeer(1, values: ["a", "b", "c"])
        defer { peer.stop() }
        let (model, table) = Self.makeTable(peer)
        let drop = try model.performDrop([Self.loading(Array("Lisbon".utf8))], at: .gap(1), policy: Self.policy)
        let placeholder = try #require(drop.pendingLoads.first?.placeholder)
        let shownBefore = table.updates.count
        peer.edit { list in
            list.insert("x", at: 0)
            list.move(from: 3, to: 1)
        }
        await model.completeLoads(drop.pendingLoads) { Issue.record("\($0)") }
        // The other changes reach the table with the commit or before it, as the main actor happens to
        // run the model's observation while the load is awaited: either way the placeholder's item is
        // never deleted, and the commit's update reconfigures it.
        let updates = table.updates[shownBefore...]
        let shown = ListChange(combining: updates.map(\.change))
        #expect(shown.removed.isEmpty)
        #expect(shown.inserted == [0])
        #expect(updates.last?.reconfiguredItems == [.placeholder(placeholder)])
        try await Self.settle(model, table)
        #expect(Self.values(peer) == ["x", "b", "a", "Lisbon", "c"])
        #expect(model.itemIdentifier(at: 3) == .placeholder(placeholder))
    }

    @Test func anyDragRepresentableValueWorks() async throws {
        let list = ReplicatedList<VCard>(replicaID: ReplicaID(1))
        list.append(contentsOf: [VCard(formattedName: "Ada"), VCard(formattedName: "Grace")])
        let peer = try Self.makePeer(list)
        defer { peer.stop() }
        let (model, table) = Self.makeTable(peer)
        let card = VCard(formattedName: "Edsger", phones: ["+31 20 555 0100"])
        let data = card.vCardData()
        let drop = try model.performDrop(
            [DropItem(.provider(typeIdentifiers: [.vCard]) { _ in data })], at: .gap(2),
            policy: DropPolicy(loadingValue: VCard(formattedName: "Loading…")))
        let placeholder = try #require(drop.pendingLoads.first?.placeholder)
        await model.completeLoads(drop.pendingLoads) { Issue.record("\($0)") }
        #expect(table.updates.map(\.change) == [ListChange(inserted: [2]), ListChange(updated: [2])])
        #expect(model.itemIdentifier(at: 2) == .placeholder(placeholder))
        table.userMovesRow(from: 2, to: 0)
        try model.moveRow(at: 2, to: 0)
        let dragged = model.dragItems(beginningAt: 0, selection: [])
        #expect(dragged.map(\.value.formattedName) == ["Edsger"] && dragged.first?.value.phones == card.phones)
        try await Self.settle(model, table)
        #expect(Self.values(peer).map(\.formattedName) == ["Edsger", "Ada", "Grace"])
    }

    @Test func dropErrorsAreReported() async throws {
        let peer = try Self.makePeer(1, values: ["a", "b"])
        defer { peer.stop() }
        let (model, table) = Self.makeTable(peer)
        let malformed = DropItem<String>(.data([Representation(typeIdentifier: .utf8PlainText, data: [0xFF])]))
        #expect {
            try model.performDrop([malformed], at: .gap(0), policy: Self.policy)
        } throws: { error in
            guard case .undecodableDrop(.malformedData(.utf8PlainText, _)) = error as? TableEditError else {
                return false
            }
            return true
        }
        #expect(table.updates.isEmpty)
        #expect(Self.values(peer) == ["a", "b"])

        struct Unreachable: Error {}
        let drop = try model.performDrop(
            [Self.loading([0xFF]), Self.loading([], failure: Unreachable())], at: .gap(1), policy: Self.policy)
        #expect(table.updates.map(\.change) == [ListChange(inserted: [1, 2])])
        var failures: [TableEditError] = []
        await model.completeLoads(drop.pendingLoads) { failures.append($0) }
        var failed: Set<PlaceholderID> = []
        for case .loadFailed(let placeholder, let cause) in failures {
            failed.insert(placeholder)
            #expect(cause is RepresentationError || cause is Unreachable)
        }
        #expect(failures.count == 2)
        #expect(failed == Set(drop.pendingLoads.map(\.placeholder)))
        try await Self.settle(model, table)
        #expect(Self.values(peer) == ["a", "b"])
    }
}
