/// The labels a replica's keys use in memory for the replicas that allocated them: short tags
/// (``KeyGrammar/TagForm/label``) ordered like the replica IDs, so that keys still compare as bytes.
///
/// A replica heard of for the first time gets a label between those of its neighbours in ID order, and
/// a label never changes, so no key is ever rewritten. Keys leave and enter the replica in portable form
/// (``widened(_:)``, ``narrowed(_:)``). The first 31 replicas, in any order, mostly get one-byte labels;
/// replicas that keep arriving between the same two neighbours lengthen the labels there by a byte per
/// five of them.
struct ReplicaLabels: Sendable {
    /// The replicas known, in increasing ID order.
    private var replicas: [ReplicaID] = []
    /// Their labels, in the same order, which is also the labels' order.
    private var labels: [PositionKey] = []

    /// Labels that know `replica` alone.
    init(replica: ReplicaID) { _ = label(of: replica) }

    /// Labels that give `replicas` (increasing IDs) the labels of their ranks in a change set's replica
    /// table (``KeyGrammar/rankLabel(_:of:into:)``), so that its keys need no translation, and `replica`
    /// a label too.
    init(ranksOf replicas: [ReplicaID], and replica: ReplicaID) {
        self.replicas = replicas
        labels = replicas.indices.map { rank in
            var label = PositionKey.empty
            KeyGrammar.rankLabel(rank, of: replicas.count, into: &label)
            return label
        }
        _ = label(of: replica)
    }

    /// The number of replicas with a label.
    var count: Int { replicas.count }

    /// The label of `replica`, given one now if it has none.
    /// - Complexity: O(log r) for r replicas, O(r) when `replica` is new.
    mutating func label(of replica: ReplicaID) -> PositionKey {
        let index = lowerBound(of: replica)
        if index < replicas.count && replicas[index] == replica { return labels[index] }
        let label = Self.label(
            between: index > 0 ? labels[index - 1] : .empty, and: index < labels.count ? labels[index] : nil)
        replicas.insert(replica, at: index)
        labels.insert(label, at: index)
        return label
    }

    /// Labels every replica of `named` (any order, repeats allowed) that has none, all at once: the new
    /// replicas that fall between two known ones share that gap evenly (by bisecting it in balance), so
    /// that labels stay about log32 of their number long whatever order they come in, and the tables are
    /// rebuilt once instead of shifted per replica.
    /// - Complexity: O(r + k log k) for r known and k new replicas.
    mutating func label(_ named: some Sequence<ReplicaID>) {
        let new = Set(named).filter { replica in
            let index = lowerBound(of: replica)
            return index == replicas.count || replicas[index] != replica
        }.sorted()
        guard !new.isEmpty else { return }
        var mergedReplicas: [ReplicaID] = []
        var mergedLabels: [PositionKey] = []
        mergedReplicas.reserveCapacity(replicas.count + new.count)
        mergedLabels.reserveCapacity(replicas.count + new.count)
        var next = 0  // the first new replica not merged yet
        for index in 0...replicas.count {
            var end = next
            while end < new.count && (index == replicas.count || new[end] < replicas[index]) { end += 1 }
            if end > next {
                // new[next..<end] lie between the known replicas index - 1 and index.
                Self.bisect(
                    index > 0 ? labels[index - 1] : .empty, index < labels.count ? labels[index] : nil,
                    count: end - next, into: &mergedLabels)
                mergedReplicas.append(contentsOf: new[next..<end])
                next = end
            }
            if index < replicas.count {
                mergedReplicas.append(replicas[index])
                mergedLabels.append(labels[index])
            }
        }
        replicas = mergedReplicas
        labels = mergedLabels
    }

    /// Appends `count` increasing labels strictly between `low` (empty: none) and `high` (nil: none): the
    /// middle one first found, then each half the same way, so that their lengths grow with the logarithm
    /// of `count`.
    private static func bisect(_ low: PositionKey, _ high: PositionKey?, count: Int, into result: inout [PositionKey]) {
        guard count > 0 else { return }
        let middle = label(between: low, and: high)
        let below = (count - 1) / 2
        bisect(low, middle, count: below, into: &result)
        result.append(middle)
        bisect(middle, high, count: count - 1 - below, into: &result)
    }

    /// A short label between `low` (empty: none) and `high` (nil: none), as ``KeyGrammar/appendBetween``
    /// finds it.
    private static func label(between low: PositionKey, and high: PositionKey?) -> PositionKey {
        var label = PositionKey.empty
        KeyGrammar.appendBetween(
            low, 0..<low.count, high ?? .empty, high.map { 0..<$0.count }, base: KeyGrammar.labelBase, offset: 0,
            to: &label)
        return label
    }

    /// The replica whose label is at byte range `tag` of `key`, or nil when no replica has that label.
    /// - Complexity: O(log r) label comparisons for r replicas.
    func replica(labelled key: PositionKey, _ tag: Range<Int>) -> ReplicaID? {
        var (low, high) = (0, labels.count)
        while low < high {
            let middle = (low + high) / 2
            let order = KeyGrammar.compare(labels[middle], key, tag)
            if order == 0 { return replicas[middle] }
            if order < 0 { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// `key` (of this replica, labelled) in portable form; `converter` (from labels) carries what the
    /// previous key had in common with it.
    /// - Precondition: every tag of `key` is a label of this table.
    func widened(_ key: PositionKey, using converter: inout KeyGrammar.Converter) -> PositionKey {
        converter.convert(key) { key, tag, result in
            guard let replica = replica(labelled: key, tag) else { return false }
            KeyGrammar.appendPortable(replica, to: &result)
            return true
        }.unsafelyUnwrapped
    }

    /// `key` (of this replica, labelled) in portable form.
    func widened(_ key: PositionKey) -> PositionKey {
        var converter = KeyGrammar.Converter(from: .label)
        return widened(key, using: &converter)
    }

    /// `key` (portable, valid) with this table's labels, labelling the replicas it names that have none;
    /// `converter` (from portable tags) carries what the previous key had in common with it.
    mutating func narrowed(_ key: PositionKey, using converter: inout KeyGrammar.Converter) -> PositionKey {
        converter.convert(key) { key, tag, result in
            result.append(contentsOf: label(of: KeyGrammar.portableReplica(key, tagAt: tag.lowerBound)!))
            return true
        }.unsafelyUnwrapped
    }

    /// `key` (portable, valid) with this table's labels, labelling the replicas it names that have none.
    mutating func narrowed(_ key: PositionKey) -> PositionKey {
        var converter = KeyGrammar.Converter(from: .portable)
        return narrowed(key, using: &converter)
    }

    /// The index of the first replica not below `replica`.
    private func lowerBound(of replica: ReplicaID) -> Int {
        var (low, high) = (0, replicas.count)
        while low < high {
            let middle = (low + high) / 2
            if replicas[middle] < replica { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
