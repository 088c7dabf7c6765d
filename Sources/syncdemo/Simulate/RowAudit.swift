import ListSync

/// Checks a settled cluster against what a ``Workload`` did: no row twice, none lost, none revived.
struct RowAudit: Hashable {
    /// Rows shown twice in one replica's list (counted per replica and row).
    var duplicatedRows = 0
    /// Rows inserted and never deleted that some replica lacks, and rows some replicas show and others
    /// do not.
    var lostRows = 0
    /// Deleted rows that some replica still shows.
    var revivedRows = 0

    /// Whether all three are zero.
    var isClean: Bool { duplicatedRows == 0 && lostRows == 0 && revivedRows == 0 }

    /// Audits the confirmed rows of every replica of `cluster` against `workload`.
    /// - Complexity: O(r n) for r replicas of n rows.
    init(_ cluster: any Cluster, after workload: Workload) {
        var shown: [Set<RowID>] = []
        for index in cluster.names.indices {
            let ids = cluster.confirmedRows(index).map(\.id)
            let unique = Set(ids)
            duplicatedRows += ids.count - unique.count
            shown.append(unique)
        }
        let anywhere = shown.reduce(into: Set<RowID>()) { $0.formUnion($1) }
        let expected = workload.inserted.subtracting(workload.deleted)
        lostRows = expected.union(anywhere).count { row in shown.contains { !$0.contains(row) } }
        revivedRows = anywhere.intersection(workload.deleted).count
    }
}
