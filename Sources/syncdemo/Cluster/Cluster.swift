import ListSync

/// Replicas of one list joined by a transport; the demo, `simulate` and `scenario` drive them.
///
/// Replicas are numbered from 0 in the order of ``names``. Every replica is linked to every other
/// until ``partition(_:)`` cuts links; ``heal()`` restores them.
protocol Cluster: AnyObject {
    /// The replicas' names, in order.
    var names: [String] { get }
    /// Runs `body` on replica `index`'s list; what it changes travels to the linked replicas.
    func edit<Result: Sendable>(_ index: Int, _ body: (ReplicatedList<Entry>) throws -> Result) rethrows -> Result
    /// Runs `body` on replica `index`'s list without changing it.
    func read<Result: Sendable>(_ index: Int, _ body: (ReplicatedList<Entry>) throws -> Result) rethrows -> Result
    /// Shows `presence` of replica `index` to the replicas linked to it (see ``presences(seenBy:)``).
    func setPresence(_ index: Int, _ presence: Presence)
    /// The presence replica `index` shows, once set.
    func ownPresence(_ index: Int) -> Presence?
    /// The presences of the other replicas that replica `index` sees.
    func presences(seenBy index: Int) -> [Presence]
    /// Cuts every link between replicas of different groups; replicas in no group are alone.
    func partition(_ groups: [[Int]])
    /// Restores every link; linked replicas then exchange what the other lacks.
    func heal()
    /// Lets everything in flight arrive; returns whether every group of linked replicas converged
    /// before `timeout`.
    func settle(timeout: Duration) -> Bool
    /// Lets some of the messages in flight arrive, between operations of a simulation; a transport
    /// that delivers on its own threads does nothing.
    func deliverSome()
    /// Change sets and bytes sent so far.
    var traffic: Traffic { get }
    /// Stops the transport; the cluster is unusable afterwards.
    func shutDown()
}

/// What a cluster's transport carried.
struct Traffic: Hashable, Sendable {
    /// Change sets sent (a relayed or duplicated one counts each time).
    var changeSets = 0
    /// Bytes sent, framing and encryption included where there are any.
    var bytes = 0
}

extension Cluster {
    /// Nothing: the transport delivers on its own.
    func deliverSome() {}

    /// The confirmed rows of replica `index` (pending placeholders are local), as (ID, value) pairs.
    func confirmedRows(_ index: Int) -> [ConfirmedRow] {
        read(index) { list in list.compactMap { row in row.rowID.map { ConfirmedRow(id: $0, value: row.value) } } }
    }

    /// Whether the replicas at `indices` show the same confirmed rows in the same order and have seen
    /// the same operations.
    func converged(_ indices: some Collection<Int>) -> Bool {
        guard let first = indices.first else { return true }
        let vector = read(first) { $0.versionVector }
        let rows = confirmedRows(first)
        return indices.dropFirst().allSatisfy { read($0) { $0.versionVector } == vector && confirmedRows($0) == rows }
    }

    /// Whether every replica converged with every other.
    var allConverged: Bool { converged(names.indices) }

    /// Lands an ended load on its replica and returns the line saying how it ended: `  phone: loaded "Ada"`.
    func land(_ load: RunningLoads.Ended) -> String {
        let report = edit(load.replica) { $0.land(load.placeholder, with: load.result).report }
        return "  \(names[load.replica]): \(report)"
    }

    /// Runs a presence command on replica `index` (its presence starts with its name) and says what it
    /// shows now.
    /// - Throws: ``CommandError`` for a row that cannot be named or a presence beyond its limits.
    func run(_ command: PresenceCommand, on index: Int) throws(CommandError) -> String {
        let current = ownPresence(index) ?? Presence(name: names[index])
        let presence = try read(index) { list in
            Result { () throws(CommandError) in try command.applied(to: current, in: list) }
        }.get()
        setPresence(index, presence)
        return command.summary(of: presence)
    }

    /// Replica `index`'s list for display, rows the others select or drag marked with their names.
    func column(_ index: Int) -> ListDisplay.Column {
        let marks = PresenceCommand.marks(presences(seenBy: index))
        return read(index) { ListDisplay.Column(name: names[index], list: $0, marks: marks) }
    }

    /// The index of the replica called `name`, or nil.
    func index(of name: String) -> Int? { names.firstIndex(of: name) }
}

/// A confirmed row as replicas compare it.
struct ConfirmedRow: Hashable, Sendable {
    /// The row's identity.
    var id: RowID
    /// Its text and check mark.
    var value: Entry
}

/// The groups of linked replicas after a partition into `groups` of `count` replicas.
func linkedGroups(_ groups: [[Int]], count: Int) -> [[Int]] {
    let grouped = Set(groups.joined())
    return groups.filter { !$0.isEmpty } + (0..<count).filter { !grouped.contains($0) }.map { [$0] }
}
