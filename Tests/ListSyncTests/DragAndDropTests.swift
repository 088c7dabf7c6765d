import Foundation
import ListSync
import TestSupport
import Testing

/// The drag-and-drop scenarios of issue 4, driven through a headless table as UIKit would drive them.
@MainActor
struct DragAndDropTests {
    static let ada = VCard(
        formattedName: "Ada Lovelace", name: VCard.Name(family: "Lovelace", given: "Ada"),
        phones: ["+44 20 7946 0000"], emails: ["ada@example.org"])

    /// A table of `values` on replica 1, and a peer replica 2 holding the same rows.
    func table(_ values: [String], policy: DropPolicy<String> = DropPolicy(loadingValue: "Loading…")) throws -> (
        TableHarness<String>, ReplicatedList<String>
    ) {
        let list = ReplicatedList<String>(replicaID: ReplicaID(1))
        list.append(contentsOf: values)
        let peer = ReplicatedList<String>(replicaID: ReplicaID(2))
        try peer.merge(list.changes(since: peer.versionVector))
        return (TableHarness(list: list, policy: policy), peer)
    }

    func contacts(_ names: [String]) -> TableHarness<VCard> {
        let list = ReplicatedList<VCard>(replicaID: ReplicaID(1))
        list.append(contentsOf: names.map { VCard(formattedName: $0) })
        let policy = DropPolicy(loadingValue: VCard(formattedName: "Loading…")) { row, dropped in
            row.adding(contactDetailsOf: dropped)
        }
        return TableHarness(list: list, policy: policy)
    }

    func dropItems(_ session: DragSession<String>) -> [DropItem<String>] {
        session.items.map { DropItem(.dragged($0)) }
    }

    /// A provider whose data arrives when the test sends it (or fails when the test finishes it).
    func gatedProvider(_ type: TypeIdentifier) -> (DropItem<String>, AsyncStream<[UInt8]>.Continuation) {
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
        let item = DropItem<String>(
            .provider(typeIdentifiers: [type]) { _ in
                for await data in stream { return data }
                try Task.checkCancellation()
                throw RepresentationError.malformedData(type, reason: "the source went away")
            })
        return (item, continuation)
    }

    // MARK: Moves

    @Test func reorderASingleRow() throws {
        let (table, _) = try self.table(["a", "b", "c", "d"])
        let session = try #require(table.beginDrag(at: 3))
        #expect(session.rows == [table.list[3].rowID])
        let items = dropItems(session)
        let proposals = table.proposals(for: items, along: [nil, .gap(3), .gap(1), .row(1)])
        #expect(proposals.map(\.operation) == [.cancel, .move, .move, .move])
        #expect(proposals.allSatisfy { $0.intent == .insertAtDestination })
        try table.drop(items, at: .gap(1))
        #expect(table.values == ["a", "d", "b", "c"])
    }

    @Test func dragThreeSelectedNonAdjacentRowsToTheTop() throws {
        let (table, peer) = try self.table(["r0", "r1", "r2", "r3", "r4", "r5", "r6"])
        table.selection = [1, 3, 5]
        let session = try #require(table.beginDrag(at: 3))
        #expect(session.items.map(\.value) == ["r1", "r3", "r5"])
        let result = try table.drop(dropItems(session), at: .gap(0))
        #expect(result.change.moved.count == 3 && result.movedRows.count == 3)
        #expect(table.values == ["r1", "r3", "r5", "r0", "r2", "r4", "r6"])
        try peer.merge(table.list.changes(since: peer.versionVector))
        #expect(peer.map(\.value) == table.values)
    }

    @Test func dragBeginsOnTheUnselectedRowAloneAndRowsJoinALiveSession() throws {
        let (table, _) = try self.table(["a", "b", "c", "d"])
        table.selection = [0, 1]
        var session = try #require(table.beginDrag(at: 3))
        #expect(session.items.map(\.value) == ["d"])
        #expect(session.add(rowAt: 0, of: table.list)?.value == "a")
        #expect(session.add(rowAt: 0, of: table.list) == nil)  // already dragged
        #expect(session.items.map(\.value) == ["d", "a"])
        #expect(
            session.items[0].representations == [Representation(typeIdentifier: .utf8PlainText, data: Array("d".utf8))])
        try table.drop(dropItems(session), at: .gap(2))
        #expect(table.values == ["b", "a", "d", "c"])  // list order kept within the block
        let (ids, change) = table.list.insertPlaceholders(showing: ["…"], at: 0)
        try table.apply(change)
        #expect(table.beginDrag(at: 0) == nil)
        try table.apply(table.list.removePlaceholder(ids[0]))
    }

    // MARK: Drops from outside

    @Test func dropAContactFromOutsideAsVCardOrAsPlainText() throws {
        let table = contacts(["Grace Hopper"])
        let both = DropItem<VCard>(.data(Self.ada.representations()))
        #expect(table.proposals(for: [both], along: [.gap(1)]).map(\.operation) == [.copy])
        try table.drop([both], at: .gap(1))
        #expect(table.values.last == Self.ada)  // the vCard, with its structured name, was read

        let textOnly = DropItem<VCard>(
            .data([Representation(typeIdentifier: .utf8PlainText, data: Array(Self.ada.plainText().utf8))]))
        try table.drop([textOnly], at: .gap(0))
        #expect(
            table.values.first == VCard(formattedName: "Ada Lovelace", phones: Self.ada.phones, emails: Self.ada.emails)
        )
        #expect(table.values.count == 3)
    }

    @Test func anUnsupportedTypeIsForbidden() throws {
        let table = contacts(["Grace Hopper"])
        let jpeg = DropItem<VCard>(.data([Representation(typeIdentifier: TypeIdentifier("public.jpeg"), data: [0xFF])]))
        let loader = DropItem<VCard>(.provider(typeIdentifiers: [TypeIdentifier("public.png")]) { _ in [] })
        for items in [[jpeg], [loader], [jpeg, loader]] {
            #expect(
                table.proposals(for: items, along: [.gap(0), .row(0)]).map(\.operation) == [.forbidden, .forbidden])
        }
        #expect(throws: RepresentationError.unsupportedTypeIdentifier(TypeIdentifier("public.jpeg"))) {
            try VCard(data: [0xFF], typeIdentifier: TypeIdentifier("public.jpeg"))
        }
    }

    @Test func aMalformedVCardThrowsItsTypedErrorAndLeavesTheListUnchanged() throws {
        let table = contacts(["Grace Hopper", "Alan Turing"])
        let before = table.list.snapshot()
        let broken = Array("BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Half a card\r\n".utf8)
        let items = [
            DropItem<VCard>(.value(Self.ada)),
            DropItem<VCard>(.data([Representation(typeIdentifier: .vCard, data: broken)])),
        ]
        let proposal = table.list.dropProposal(for: items, at: .gap(1), policy: table.policy)
        #expect(proposal.operation == .copy)
        #expect(throws: RepresentationError.malformedData(.vCard, reason: "no END:VCARD")) {
            try table.list.performDrop(items, proposal: proposal, policy: table.policy)
        }
        #expect(table.list.snapshot() == before && table.list.map(\.value) == table.values)
    }

    @Test func proposalsForbidInvalidDestinationsAndUnacceptedCounts() throws {
        let (table, _) = try self.table(["a", "b"], policy: DropPolicy(loadingValue: "…", acceptedItemCounts: 1...2))
        let one = [DropItem<String>(.value("x"))]
        let three = Array(repeating: DropItem<String>(.value("x")), count: 3)
        #expect(
            table.proposals(for: one, along: [.gap(-1), .gap(3), .row(2), .gap(2)]).map(\.operation)
                == [.forbidden, .forbidden, .forbidden, .copy])
        #expect(table.proposals(for: three, along: [.gap(0)]).map(\.operation) == [.forbidden])
        #expect(table.proposals(for: [], along: [.gap(0)]).map(\.operation) == [.cancel])
        // No merge rule: over a row, the item goes before it.
        #expect(table.proposals(for: one, along: [.row(1)]) == [DropProposal(operation: .copy, destination: 1)])
    }

    @Test func dropOntoARowWithTheIntoIntentEditsIt() throws {
        let table = contacts(["Grace Hopper", "Alan Turing"])
        let number = DropItem<VCard>(
            .data([Representation(typeIdentifier: .utf8PlainText, data: Array("+1 555 0100".utf8))]))
        let proposals = table.proposals(for: [number], along: [.row(1), .gap(1)])
        #expect(proposals.map(\.intent) == [.insertIntoDestination, .insertAtDestination])
        let result = try table.drop([number], at: .row(1))
        #expect(result.change == ListChange(updated: [1]) && result.updatedRow == table.list[1].rowID)
        #expect(table.values.map(\.phones) == [[], ["+1 555 0100"]])
        #expect(table.values.count == 2)
    }

    // MARK: Asynchronous loads and placeholders

    @Test func mixedDropsLandAsOneBlockInItemOrder() async throws {
        let (table, _) = try self.table(["a", "b", "c", "d"])
        table.selection = [0, 3]
        let session = try #require(table.beginDrag(at: 0))
        let (late, continuation) = gatedProvider(.utf8PlainText)
        let items =
            [DropItem<String>(.value("v"))] + dropItems(session).prefix(1) + [late] + dropItems(session).suffix(1)
        let result = try table.drop(items, at: .gap(2))
        #expect(table.values == ["b", "v", "a", "Loading…", "d", "c"])
        #expect(table.list.map(\.isPending) == [false, false, false, true, false, false])
        continuation.yield(Array("loaded".utf8))
        let outcomes = try await table.completeLoads(result)
        #expect(outcomes.count == 1 && table.values == ["b", "v", "a", "loaded", "d", "c"])
    }

    @Test func aSlowLoadLandsWhereItsPlaceholderIsWhileAPeerEditsAroundIt() async throws {
        let (table, peer) = try self.table((0..<10).map { "r\($0)" })
        let (item, continuation) = gatedProvider(.utf8PlainText)
        let result = try table.drop([item], at: .gap(5))
        let placeholder = try #require(result.pendingLoads.first?.placeholder)
        #expect(table.list.placeholderIndex(placeholder) == 5)
        let loading = Task { try await table.completeLoads(result) }

        // The peer inserts 100 rows above the placeholder and deletes both of its neighbours.
        peer.insert(contentsOf: (0..<100).map { "p\($0)" }, at: 2)
        peer.remove(atOffsets: [104, 105])
        try table.merge(from: peer)
        let index = try #require(table.list.placeholderIndex(placeholder))
        #expect(index == 104 && table.list[index].isPending)
        #expect(table.values[index - 1] == "r3" && table.values[index + 1] == "r6")

        continuation.yield(Array("dropped".utf8))
        let outcomes = try await loading.value
        guard case .committed(placeholder, let row)? = outcomes.first else {
            Issue.record("not committed: \(outcomes)")
            return
        }
        #expect(table.list.index(forRow: row) == index && table.values[index] == "dropped")
        try peer.merge(table.list.changes(since: peer.versionVector))
        try table.merge(from: peer)
        #expect(peer.map(\.value) == table.list.map(\.value) && peer.snapshot() == table.list.snapshot())
        #expect(peer.index(forRow: row) == index)
    }

    @Test(arguments: [false, true])
    func aFailedOrCancelledLoadLeavesNoTrace(cancel: Bool) async throws {
        let (table, peer) = try self.table(["a", "b", "c"])
        let localSnapshot = table.list.snapshot()
        let peerSnapshot = peer.snapshot()
        let counter = table.list.nextOperationCounter
        let clock = table.list.lamportClock
        let (item, continuation) = gatedProvider(.utf8PlainText)
        let result = try table.drop(
            [
                item,
                DropItem(
                    .provider(typeIdentifiers: [.utf8PlainText]) { _ in
                        throw RepresentationError.malformedData(.utf8PlainText, reason: "disk error")
                    }),
            ], at: .gap(1))
        #expect(table.values == ["a", "Loading…", "Loading…", "b", "c"])
        let loading = Task { try await table.completeLoads(result) }
        if cancel { loading.cancel() } else { continuation.finish() }
        let outcomes = try await loading.value
        #expect(outcomes.count == 2)
        for outcome in outcomes {
            switch outcome {
            case .committed: Issue.record("a failed load was committed")
            case .cancelled(let id): #expect(id == result.pendingLoads[0].placeholder && cancel)
            case .failed(let id, _): #expect(id == result.pendingLoads[1].placeholder || !cancel)
            }
        }
        #expect(table.values == ["a", "b", "c"] && table.list.pendingCount == 0)
        #expect(table.list.snapshot() == localSnapshot)
        #expect(table.list.nextOperationCounter == counter && table.list.lamportClock == clock)
        #expect(table.list.changes(since: peer.versionVector).isEmpty)  // nothing to send
        try peer.merge(table.list.changes(since: peer.versionVector))
        #expect(peer.snapshot() == peerSnapshot)
    }
}
