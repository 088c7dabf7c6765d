import Testing

@testable import ListSync

/// `ReplicatedList.pendingDrops`: the pending placeholders as a presence shows them, one per block of
/// consecutive ones, each after the confirmed row before it, within `Presence.Limits`.
struct PendingDropsTests {
    @Test func eachBlockOfPlaceholdersIsOneDropAfterTheConfirmedRowBeforeIt() throws {
        let list = ReplicatedList<String>(replicaID: ReplicaID(1))
        #expect(list.pendingDrops.isEmpty)
        list.append(contentsOf: ["Paris", "Rome", "Oslo"])
        let rows = list.compactMap(\.id.rowID)
        _ = list.insertPlaceholders(showing: ["…", "…"], at: 1)  // Paris … … Rome Oslo
        _ = list.insertPlaceholders(showing: ["…"], at: 0)  // … Paris … … Rome Oslo
        _ = list.insertPlaceholders(showing: ["…"], at: list.count)  // … Paris … … Rome Oslo …
        #expect(
            list.pendingDrops == [
                .init(count: 1, after: nil), .init(count: 2, after: rows[0]), .init(count: 1, after: rows[2]),
            ])
        // Two blocks that become one: a placeholder between them joins them; Rome's delete does not.
        let (ids, _) = list.insertPlaceholders(showing: ["…"], at: 2)  // … Paris … … … Rome Oslo …
        list.remove(at: 5)  // … Paris … … … Oslo …
        #expect(list.pendingDrops[1] == .init(count: 3, after: rows[0]))
        _ = try list.removePlaceholder(ids[0])
        #expect(list.pendingDrops[1] == .init(count: 2, after: rows[0]))
    }

    @Test func theDropsStayWithinThePresenceLimits() throws {
        let list = ReplicatedList<String>(replicaID: ReplicaID(1))
        list.append(contentsOf: (0..<20).map { "row \($0)" })
        for index in stride(from: 19, through: 0, by: -1) { _ = list.insertPlaceholders(showing: ["…"], at: index) }
        // After row 0, beside the placeholder there: one block of 10,001, shown as 10,000.
        _ = list.insertPlaceholders(showing: Array(repeating: "…", count: Presence.Limits.placeholderCount), at: 2)
        let drops = list.pendingDrops
        #expect(drops.count == Presence.Limits.pendingDropCount)
        #expect(drops[0] == .init(count: 1, after: nil))
        #expect(drops[1].count == Presence.Limits.placeholderCount)
        try Presence(name: "Ada", pendingDrops: drops).validate()
    }
}
