/// Consecutive deleted rows `replica:first ..< replica:first + length` whose delete stamps step evenly:
/// a block deleted by one change (one Lamport time, consecutive counters, the rows in either order), or
/// backspacing (one change per row). The unit in which tombstones are kept, sent and stored, so that a
/// deletion costs the same whatever the number of rows it removed.
///
/// A single deleted row is a run of length 1, whose steps are (0, 1) by convention.
struct DeletionRun: Hashable, Sendable {
    /// The rows' replica.
    var replica: ReplicaID
    /// The first row's counter.
    var first: UInt64
    /// The number of rows, at least 1.
    var length: UInt64
    /// The first row's delete stamp.
    var stamp: Stamp
    /// How the delete stamp's Lamport time changes from one row to the next: -1, 0 or 1.
    var lamportStep: Int64
    /// How the delete dot's counter changes from one row to the next: -1 or 1.
    var counterStep: Int64

    /// A run of the given rows and delete stamps.
    init(replica: ReplicaID, first: UInt64, length: UInt64, stamp: Stamp, lamportStep: Int64, counterStep: Int64) {
        self.replica = replica
        self.first = first
        self.length = length
        self.stamp = stamp
        self.lamportStep = lamportStep
        self.counterStep = counterStep
    }

    /// The run of the one row `id`, deleted by `stamp`.
    init(_ id: RowID, deletedBy stamp: Stamp) {
        self.init(replica: id.replica, first: id.counter, length: 1, stamp: stamp, lamportStep: 0, counterStep: 1)
    }

    /// The counter past the last row.
    var end: UInt64 { first + length }

    /// The delete stamp of row `first + offset`, for `offset` in `0..<length` (past it, the stamp the
    /// row after the run would need to continue it, computed with wrapping arithmetic).
    func stamp(at offset: UInt64) -> Stamp {
        Stamp(
            lamport: stamp.lamport &+ UInt64(bitPattern: lamportStep &* Int64(bitPattern: offset)),
            dot: Dot(
                replica: stamp.dot.replica,
                counter: stamp.dot.counter &+ UInt64(bitPattern: counterStep &* Int64(bitPattern: offset))))
    }

    /// The highest Lamport time of the delete stamps.
    var maxLamport: UInt64 { max(stamp.lamport, stamp(at: length - 1).lamport) }

    /// Whether `id` is one of the rows.
    func contains(_ id: RowID) -> Bool { id.replica == replica && id.counter &- first < length }

    /// The `count` rows from `offset` on, as a run.
    func slice(from offset: UInt64, count: UInt64) -> DeletionRun {
        let steps = count > 1 ? (lamportStep, counterStep) : (0, 1)
        return DeletionRun(
            replica: replica, first: first + offset, length: count, stamp: stamp(at: offset), lamportStep: steps.0,
            counterStep: steps.1)
    }

    /// The counters of the delete dots, lowest to highest.
    var dotCounters: ClosedRange<UInt64> {
        let last = stamp(at: length - 1).dot.counter
        return counterStep > 0 ? stamp.dot.counter...last : last...stamp.dot.counter
    }

    /// The offsets of the rows whose delete dots have the counters `counters` (within ``dotCounters``).
    func offsets(ofDotCounters counters: ClosedRange<UInt64>) -> Range<UInt64> {
        counterStep > 0
            ? (counters.lowerBound - stamp.dot.counter)..<(counters.upperBound - stamp.dot.counter + 1)
            : (stamp.dot.counter - counters.upperBound)..<(stamp.dot.counter - counters.lowerBound + 1)
    }

    /// Whether the row after the run, deleted by `next`, continues it: its steps, or for a run of one
    /// row any steps a run can have.
    func isContinued(by next: Stamp) -> Bool {
        length == 1 ? stamp.runSteps(to: next) != nil : stamp(at: length) == next
    }
}

extension DeletionRun {
    /// Builds the canonical runs of a set of deleted rows from pieces given in row order: the greedy
    /// runs, each starting at the lowest row not yet in one and taking every next row that continues
    /// it (``isContinued(by:)``). They depend only on the rows and their stamps, not on how the pieces
    /// cut them, so equal sets give equal runs and equal bytes.
    struct Canonical {
        /// The runs so far.
        private(set) var runs: [DeletionRun] = []

        /// An empty set.
        init() {}

        /// Adds the rows of `piece`, which come after every row added so far.
        /// - Complexity: O(1) amortized.
        mutating func append(_ piece: DeletionRun) {
            var piece = piece
            while piece.length > 0 {
                guard let last = runs.last, last.replica == piece.replica, last.end == piece.first,
                    last.isContinued(by: piece.stamp)
                else {
                    runs.append(piece)
                    return
                }
                // The piece's first row continues the last run: so do all its rows when they step alike.
                let (lamportStep, counterStep) =
                    last.length == 1
                    ? last.stamp.runSteps(to: piece.stamp)! : (last.lamportStep, last.counterStep)
                let taken =
                    piece.length == 1 || (piece.lamportStep, piece.counterStep) == (lamportStep, counterStep)
                    ? piece.length : 1
                runs[runs.count - 1].length += taken
                runs[runs.count - 1].lamportStep = lamportStep
                runs[runs.count - 1].counterStep = counterStep
                piece = piece.slice(from: taken, count: piece.length - taken)
            }
        }
    }

    /// The canonical runs of `pieces`, which are disjoint: sorted, then built as ``Canonical``.
    static func canonical(_ pieces: some Sequence<DeletionRun>) -> [DeletionRun] {
        var builder = Canonical()
        for piece in pieces.sorted(by: { ($0.replica, $0.first) < ($1.replica, $1.first) }) { builder.append(piece) }
        return builder.runs
    }
}

extension Stamp {
    /// The steps (Lamport time, counter) from this stamp to `next` when the rows they stamp can be
    /// neighbours in a run (of deleted rows, or of inserted ones, whose stamps' dots are their row IDs):
    /// the same replica's dots, counters one apart, Lamport times at most one apart.
    func runSteps(to next: Stamp) -> (lamport: Int64, counter: Int64)? {
        guard dot.replica == next.dot.replica else { return nil }
        let counter = Int64(bitPattern: next.dot.counter &- dot.counter)
        let lamport = Int64(bitPattern: next.lamport &- lamport)
        guard counter == 1 || counter == -1, lamport >= -1 && lamport <= 1 else { return nil }
        return (lamport, counter)
    }
}
