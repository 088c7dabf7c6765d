import ListSync

/// The random edits of a simulation, as ``ListCommand``s, and the rows they inserted and deleted.
///
/// A short list gets inserts; otherwise inserts (35%), moves of one row (25%), block moves of 2 to 5
/// selected rows (10%), deletes of 1 or 2 rows (15%) and edits (15%), each at random places.
struct Workload {
    /// Draws every choice.
    private var generator: SplitMix64
    /// The number of rows inserted or edited so far, for fresh texts.
    private var texts = 0
    /// Every row inserted.
    private(set) var inserted: Set<RowID> = []
    /// Every row deleted.
    private(set) var deleted: Set<RowID> = []

    /// A workload drawing from `generator`.
    init(generator: SplitMix64) { self.generator = generator }

    /// Runs one random edit on `list`, recording the rows it inserts or deletes.
    /// - Throws: ``CommandError`` if the command does not fit the list (a bug in the workload).
    mutating func edit(_ list: ReplicatedList<Entry>) throws(CommandError) {
        let count = list.count
        let roll = count < 4 ? 0 : Int.random(in: 0..<100, using: &generator)
        switch roll {
        case ..<35:
            let index = Int.random(in: 0...count, using: &generator)
            let rows = (0..<Int.random(in: 1...3, using: &generator)).map { _ in freshText() }
            _ = try list.run(.insert(rows, at: index))
            inserted.formUnion((index..<index + rows.count).compactMap { list[$0].rowID })
        case ..<60:
            let row = Int.random(in: 0..<count, using: &generator)
            _ = try list.run(.move([.index(row)], to: .index(Int.random(in: 0..<count, using: &generator))))
        case ..<70:
            let rows = pick(Int.random(in: 2...min(5, count - 1), using: &generator), of: count)
            let destination = Int.random(in: 0...(count - rows.count), using: &generator)
            _ = try list.run(.move(rows.map { .index($0) }, to: .index(destination)))
        case ..<85:
            let rows = pick(Int.random(in: 1...2, using: &generator), of: count)
            let ids = rows.compactMap { list[$0].rowID }
            _ = try list.run(.delete(rows.map { .index($0) }))
            deleted.formUnion(ids)
        default:
            _ = try list.run(.edit(.index(Int.random(in: 0..<count, using: &generator)), freshText()))
        }
    }

    /// `count` distinct offsets below `bound`, in random order.
    private mutating func pick(_ count: Int, of bound: Int) -> [Int] {
        Array((0..<bound).shuffled(using: &generator).prefix(count))
    }

    /// A text no row had before: `r1`, `r2`, …
    private mutating func freshText() -> String {
        texts += 1
        return "r\(texts)"
    }
}
