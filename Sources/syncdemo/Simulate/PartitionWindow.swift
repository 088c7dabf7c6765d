/// A partition of a simulation: during `operations`, only replicas of the same group are linked.
///
/// Written `FROM-TO:GROUP/GROUP...`, each group a comma-separated list of replica numbers:
/// `100-400:0,1/2,3` cuts {0, 1} from {2, 3} before operation 100 and heals before operation 400.
/// Replicas in no group are alone.
struct PartitionWindow: Equatable {
    /// The operations run while partitioned (0-based).
    var operations: Range<Int>
    /// The groups of linked replicas.
    var groups: [[Int]]

    /// The syntax, for error messages.
    static let syntax = "FROM-TO:GROUP/GROUP..., e.g. 100-400:0,1/2,3"
}

extension ParsedArguments {
    /// Every `--name` as a ``PartitionWindow`` of a simulation of `replicas` replicas and `operations`
    /// operations, sorted by start.
    /// - Throws: ``UsageError`` for malformed windows, replica numbers out of range, a replica in two
    ///   groups, or windows that overlap.
    func partitionWindows(_ name: String, replicas: Int, operations: Int) throws(UsageError) -> [PartitionWindow] {
        var windows: [PartitionWindow] = []
        for text in strings(name) {
            windows.append(try partitionWindow(text, option: name, replicas: replicas, operations: operations))
        }
        windows.sort { $0.operations.lowerBound < $1.operations.lowerBound }
        for (earlier, later) in zip(windows, windows.dropFirst())
        where later.operations.lowerBound < earlier.operations.upperBound {
            throw error(
                "option '--\(name)': partitions \(earlier.operations.lowerBound)-\(earlier.operations.upperBound) and "
                    + "\(later.operations.lowerBound)-\(later.operations.upperBound) overlap; one partition at a time")
        }
        return windows
    }

    /// One `FROM-TO:GROUPS` window.
    private func partitionWindow(
        _ text: String, option name: String, replicas: Int, operations: Int
    ) throws(UsageError) -> PartitionWindow {
        func malformed(_ why: String) -> UsageError {
            error("option '--\(name)' expects \(PartitionWindow.syntax); \(text.quoted): \(why)")
        }
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let bounds = parts[0].split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 2, bounds.count == 2, let from = bounds[0], let to = bounds[1] else {
            throw malformed("write the operations as FROM-TO, then a colon and the groups")
        }
        guard 0 <= from && from < to && to <= operations else {
            throw malformed("FROM-TO must satisfy 0 <= FROM < TO <= \(operations) (the --ops)")
        }
        var seen: Set<Int> = []
        var groups: [[Int]] = []
        for group in parts[1].split(separator: "/", omittingEmptySubsequences: false) {
            var members: [Int] = []
            for word in group.split(separator: ",", omittingEmptySubsequences: false) {
                guard let replica = Int(word), (0..<replicas).contains(replica) else {
                    throw malformed("\(word.quoted) is not a replica number from 0 to \(replicas - 1)")
                }
                guard seen.insert(replica).inserted else { throw malformed("replica \(replica) is in two groups") }
                members.append(replica)
            }
            groups.append(members)
        }
        return PartitionWindow(operations: from..<to, groups: groups)
    }
}
