import Testing

@testable import ListSync

/// The journal of recent local changes against a plain list of every change recorded.
struct LocalJournalTests {
    @Test func recentChangesReturnExactlyTheirRowsAcrossGenerations() {
        var generator = SplitMix64(seed: 11)
        var journal = LocalJournal()
        var changes: [(counters: ClosedRange<UInt64>, rows: [RowID])] = []
        var nextCounter: UInt64 = 1
        for step in 0..<6_000 {
            // Counters usually follow on; sometimes a gap (operations this replica lost and skipped).
            if generator.next() % 50 == 0 { nextCounter += 3 }
            let operations = 1 + Int(generator.next() % 5)
            let rows = (0..<operations).map { RowID(replica: ReplicaID(1), counter: UInt64(step * 8 + $0)) }
            for row in rows { journal.touch(row) }
            let counters = nextCounter...(nextCounter + UInt64(operations) - 1)
            journal.record(counters)
            changes.append((counters, rows))
            nextCounter = counters.upperBound + 1

            // Ask for the operations from a recent counter on: from the start of a change up to 300
            // changes back, or from inside one.
            let back = Int(generator.next() % UInt64(min(changes.count, 300)))
            let first = changes[changes.count - 1 - back]
            let lower = first.counters.lowerBound + generator.next() % UInt64(first.counters.count)
            let asked = lower...(lower + generator.next() % 4)
            let expectedChanges = changes[(changes.count - 1 - back)...]
            let contiguous = zip(expectedChanges, expectedChanges.dropFirst()).allSatisfy {
                $0.counters.upperBound + 1 == $1.counters.lowerBound
            }
            let recorded = expectedChanges.reduce(0) { $0 + $1.rows.count }
            let found = journal.rows(touchedBy: asked)
            if let found {
                #expect(contiguous && asked.upperBound <= nextCounter - 1, "step \(step): \(asked) found despite a gap")
                #expect(found == expectedChanges.flatMap(\.rows), "step \(step): rows of \(asked)")
            } else if contiguous && recorded <= LocalJournal.capacity && asked.upperBound < nextCounter {
                Issue.record("step \(step): \(asked) (\(recorded) rows back) forgotten")
            }
        }
    }
}
