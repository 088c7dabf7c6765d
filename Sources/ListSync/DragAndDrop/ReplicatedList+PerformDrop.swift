import Foundation

/// Performing a drop: moves, inserts and placeholders.
extension ReplicatedList where Element: DragRepresentable {
    /// What one item becomes.
    private enum ItemPlan {
        case move(RowID)
        case insert(Element)
        case load(TypeIdentifier, @Sendable (TypeIdentifier) async throws -> [UInt8], showing: Element)
        case skip
    }

    /// Performs the drop of `items` that `proposal` (from ``dropProposal(for:at:policy:)``) accepted.
    ///
    /// Rows of this list move as one block, in their list order. Items at hand (values, dragged rows of
    /// other lists, data) are inserted at once; items to load get one placeholder each. Everything lands
    /// as one contiguous block at the destination, in item order. Every item's data at hand is decoded
    /// before anything changes, so malformed data throws and leaves the list as it was. With the "into"
    /// intent, the item's value is merged into the row at the destination by ``DropPolicy/mergeIntoRow``.
    /// Items nothing can read, and rows deleted meanwhile, are skipped.
    /// - Returns: the drop's batch (one for the whole drop), the rows it moved and inserted, and the
    ///   placeholders still to load.
    /// - Throws: ``RepresentationError`` from decoding data at hand; nothing changed then.
    /// - Complexity: O(k log n) for k items.
    public func performDrop(
        _ items: [DropItem<Element>], proposal: DropProposal, policy: DropPolicy<Element>
    ) throws(RepresentationError) -> DropResult<Element> {
        guard proposal.isAccepted else { return DropResult() }
        var plans: [ItemPlan] = []
        plans.reserveCapacity(items.count)
        for item in items { plans.append(try plan(for: item, policy: policy)) }
        if proposal.intent == .insertIntoDestination { return mergeIntoRow(plans, at: proposal.destination, policy) }

        // One batch for the whole drop: the combination of its moves and inserts.
        var result = DropResult<Element>()
        let change = transaction { list in list.land(plans, at: proposal.destination, into: &result) }.change
        result.change = change
        return result
    }

    /// Moves the rows of `plans` as one block to `destination` and inserts the other items around them,
    /// in item order, noting what it moved and inserted in `result`.
    private func land(_ plans: [ItemPlan], at destination: Int, into result: inout DropResult<Element>) {
        let destination = Swift.min(Swift.max(destination, 0), count)
        var moves: [(row: RowID, from: Int)] = []
        for case .move(let row) in plans {
            guard let index = index(forRow: row) else { continue }
            moves.append((row, index))
            result.movedRows.append(row)
        }
        let moving = moves.map(\.from).sorted()
        move(fromOffsets: IndexSet(moving), toOffset: destination)
        var cursor = destination - moving.lazy.filter { $0 < destination }.count
        var run: [ItemPlan] = []
        for plan in plans {
            switch plan {
            case .move(let row):
                insertRun(&run, at: &cursor, into: &result)
                cursor = (index(forRow: row) ?? cursor - 1) + 1
            case .insert, .load: run.append(plan)
            case .skip: continue
            }
        }
        insertRun(&run, at: &cursor, into: &result)
    }

    private func plan(for item: DropItem<Element>, policy: DropPolicy<Element>) throws(RepresentationError) -> ItemPlan
    {
        switch item.content {
        case .dragged(let dragged) where dragged.sourceReplica == replicaID:
            return index(forRow: dragged.row) == nil ? .skip : .move(dragged.row)
        case .provider(let typeIdentifiers, let load):
            guard let type = Element.preferredReadableType(among: typeIdentifiers) else { return .skip }
            return .load(type, load, showing: item.provisionalValue ?? policy.loadingValue)
        case .dragged, .value, .data:
            return try item.valueAtHand().map(ItemPlan.insert) ?? .skip
        }
    }

    private func mergeIntoRow(_ plans: [ItemPlan], at index: Int, _ policy: DropPolicy<Element>) -> DropResult<Element>
    {
        var result = DropResult<Element>()
        guard case .insert(let dropped)? = plans.first, let merge = policy.mergeIntoRow, indices.contains(index),
            let row = self[index].rowID, let merged = merge(self[index].value, dropped)
        else { return result }
        result.change = updateValue(merged, at: index)
        result.updatedRow = row
        return result
    }

    /// Inserts a run of items at `cursor`: values as blocks of rows, loads as blocks of placeholders.
    private func insertRun(_ run: inout [ItemPlan], at cursor: inout Int, into result: inout DropResult<Element>) {
        var start = run.startIndex
        while start < run.endIndex {
            var end = start
            var values: [Element] = []
            var loads: [(TypeIdentifier, @Sendable (TypeIdentifier) async throws -> [UInt8], Element)] = []
            while end < run.endIndex {
                if case .insert(let value) = run[end], loads.isEmpty {
                    values.append(value)
                } else if case .load(let type, let load, let shown) = run[end], values.isEmpty {
                    loads.append((type, load, shown))
                } else {
                    break
                }
                end += 1
            }
            if !values.isEmpty {
                insert(contentsOf: values, at: cursor)
                result.insertedRows += (cursor..<(cursor + values.count)).compactMap { self[$0].rowID }
                cursor += values.count
            } else {
                let ids = insertPlaceholders(showing: loads.map(\.2), at: cursor).ids
                for (id, load) in zip(ids, loads) {
                    result.pendingLoads.append(.init(placeholder: id, typeIdentifier: load.0, load: load.1))
                }
                cursor = (ids.last.flatMap(placeholderIndex) ?? cursor - 1) + 1
            }
            start = end
        }
        run.removeAll()
    }
}
