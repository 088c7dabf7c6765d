/// The pending placeholders of a replica as its presence shows them to other replicas.
extension ReplicatedList {
    /// The placeholders pending here, one ``Presence/PendingDrop`` per block of consecutive ones (in
    /// list order, each after the confirmed row just before it, nil at the top), within
    /// ``Presence/Limits``: at most ``Presence/Limits/pendingDropCount`` blocks (the first ones), each
    /// counting at most ``Presence/Limits/placeholderCount``.
    /// - Complexity: O(p log n) for p placeholders; O(1) when none is pending.
    public var pendingDrops: [Presence.PendingDrop] {
        guard pendingCount > 0 else { return [] }
        let indexes = core.rows.placeholders.keys.compactMap { core.index(of: $0) }.sorted()
        var drops: [(first: Int, count: Int)] = []
        for index in indexes {
            if let last = drops.last, last.first + last.count == index {
                drops[drops.count - 1].count += 1
            } else {
                drops.append((index, 1))
            }
        }
        return drops.prefix(Presence.Limits.pendingDropCount).map { drop in
            Presence.PendingDrop(
                count: Swift.min(drop.count, Presence.Limits.placeholderCount), after: confirmedRow(before: drop.first))
        }
    }
}
