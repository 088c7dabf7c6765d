import Foundation
import TestSupport
import Testing

@testable import ListSync

/// Presence: the latest update of each peer by its own clock, expiry after silence, departures, rows
/// deleted meanwhile left out, bounds, and the binary form with every bad input refused.
struct PresenceTableTests {
    private let start = ContinuousClock.now
    private let ada = ReplicaID(1)
    private let grace = ReplicaID(2)

    private func row(_ counter: UInt64, of replica: UInt64 = 9) -> RowID {
        RowID(replica: ReplicaID(replica), counter: counter)
    }

    private func update(_ replica: ReplicaID, clock: UInt64, _ presence: Presence?) -> PresenceTable.Update {
        PresenceTable.Update(replica: replica, clock: clock, presence: presence)
    }

    @Test func theLatestUpdateOfEachPeerWinsByItsOwnClock() {
        var table = PresenceTable()
        let applied1 = table.apply(update(ada, clock: 5, Presence(name: "Ada")), at: start)
        #expect(applied1)
        let applied2 = table.apply(update(ada, clock: 4, Presence(name: "Ada (old)")), at: start)
        #expect(!applied2)
        let applied3 = table.apply(update(ada, clock: 5, Presence(name: "Ada (again)")), at: start)
        #expect(!applied3, "a relayed copy")
        let applied4 = table.apply(update(grace, clock: 1, Presence(name: "Grace", selection: [row(1)])), at: start)
        #expect(applied4)
        let applied5 = table.apply(update(ada, clock: 6, Presence(name: "Ada", selection: [row(2)])), at: start)
        #expect(applied5)
        let presences = table.presences { _ in true }
        #expect(
            presences == [
                ada: Presence(name: "Ada", selection: [row(2)]), grace: Presence(name: "Grace", selection: [row(1)]),
            ])
    }

    @Test func aSilentPeerExpiresAndOneThatLeftIsGoneAtOnce() {
        var table = PresenceTable(timeout: .seconds(30))
        _ = table.apply(update(ada, clock: 1, Presence(name: "Ada")), at: start)
        _ = table.apply(update(grace, clock: 1, Presence(name: "Grace")), at: start)
        #expect(table.nextExpiry == start + .seconds(30))
        _ = table.apply(update(ada, clock: 2, Presence(name: "Ada")), at: start + .seconds(15))  // renewed
        let applied1 = table.apply(update(grace, clock: 2, nil), at: start + .seconds(20))
        #expect(applied1, "Grace stops cleanly")
        #expect(table.presences { _ in true }.keys.sorted() == [ada])
        let applied2 = table.apply(update(grace, clock: 1, Presence(name: "Grace")), at: start + .seconds(21))
        #expect(!applied2, "a late copy of an older update does not bring her back")
        let expired = [30, 45, 50].map { table.expire(at: start + .seconds($0)) }
        #expect(expired[0] == [])
        #expect(expired[1] == [ada], "Ada, silent since 15 s")
        #expect(expired[2] == [], "Grace's departure, forgotten at 50 s without a report")
        #expect(table.presences { _ in true }.isEmpty)
        #expect(table.updates.isEmpty && table.nextExpiry == nil)
    }

    @Test func rowsNotShownLeaveEveryPresence() {
        var table = PresenceTable()
        let presence = Presence(
            name: "Ada", selection: [row(1), row(2), row(3)],
            drag: Presence.Drag(rows: [row(2)], hover: .before(row(3))),
            pendingDrops: [
                Presence.PendingDrop(count: 3, after: row(3)), Presence.PendingDrop(count: 1, after: row(1)),
            ])
        _ = table.apply(update(ada, clock: 1, presence), at: start)
        let deleted: Set = [row(2), row(3)]
        let shown = table.presences { !deleted.contains($0) }[ada]
        #expect(shown?.selection == [row(1)])
        #expect(shown?.drag == nil, "a drag whose rows are all gone ends")
        #expect(
            shown?.pendingDrops == [
                Presence.PendingDrop(count: 3, after: nil), Presence.PendingDrop(count: 1, after: row(1)),
            ])
        let hoverGone = Presence(name: "Ada", drag: Presence.Drag(rows: [row(1)], hover: .onto(row(2))))
        #expect(hoverGone.filteringRows { !deleted.contains($0) }.drag == Presence.Drag(rows: [row(1)], hover: nil))
    }

    @Test func theTableHoldsAtMostItsPeers() {
        var table = PresenceTable()
        for replica in 1...UInt64(PresenceTable.maximumPeerCount) {
            let applied1 = table.apply(update(ReplicaID(replica), clock: 1, Presence(name: "p")), at: start)
            #expect(applied1)
        }
        let applied2 = table.apply(update(ReplicaID(100_000), clock: 1, Presence(name: "one too many")), at: start)
        #expect(!applied2)
        let applied3 = table.apply(
            update(ReplicaID(1), clock: 2, Presence(name: "known peers still update")), at: start)
        #expect(applied3)
        #expect(table.updates.count == PresenceTable.maximumPeerCount)
    }

    @Test func updatesRoundTripThroughTheBinaryForm() throws {
        let updates = [
            update(
                ada, clock: 1 << 40,
                Presence(
                    name: "Ada Lovelace ✓", selection: [row(1), row(Dot.maximumCounter, of: .max)],
                    drag: Presence.Drag(rows: [row(7)], hover: .end),
                    pendingDrops: [
                        Presence.PendingDrop(count: 3, after: nil), Presence.PendingDrop(count: 10_000, after: row(2)),
                    ])),
            update(grace, clock: 0, nil),
            update(ReplicaID(3), clock: 7, Presence(name: "", drag: Presence.Drag(rows: [], hover: .onto(row(4))))),
            update(
                ReplicaID(4), clock: 8, Presence(name: "x", drag: Presence.Drag(rows: [row(5)], hover: .before(row(6))))
            ),
            update(ReplicaID(5), clock: 9, Presence(name: "y", drag: Presence.Drag(rows: [row(5)]))),
        ]
        #expect(try PresenceTable.Update.decode(PresenceTable.Update.encode(updates)) == updates)
        #expect(try PresenceTable.Update.decode(PresenceTable.Update.encode([])) == [])
    }

    @Test func everyCutOfAnEncodingIsRefused() throws {
        let bytes = PresenceTable.Update.encode([
            update(
                ada, clock: 300,
                Presence(
                    name: "Ada", selection: [row(1)], drag: Presence.Drag(rows: [row(2)], hover: .before(row(3))),
                    pendingDrops: [Presence.PendingDrop(count: 2, after: row(4))]))
        ])
        for length in 0..<bytes.count {
            #expect(throws: BinaryDecodingError.self) { try PresenceTable.Update.decode(Array(bytes.prefix(length))) }
        }
        #expect(throws: BinaryDecodingError.trailingBytes(offset: bytes.count)) {
            try PresenceTable.Update.decode(bytes + [0])
        }
    }

    /// One update of a presence whose fields are written by hand, to break each rule in turn.
    private func encoded(
        name: [UInt8] = Array("Ada".utf8), selection: [UInt8] = [0], drag: [UInt8] = [0], pending: [UInt8] = [0],
        flag: UInt8 = 1
    ) -> [UInt8] {
        var bytes: [UInt8] = [1] + [1, 0, 0, 0, 0, 0, 0, 0] + [5, flag]
        bytes += [UInt8(name.count)] + name + selection + drag + pending
        return bytes
    }

    @Test func malformedPresenceIsRefusedWithWhereAndWhy() throws {
        let rowBytes: [UInt8] = [9, 0, 0, 0, 0, 0, 0, 0, 1]
        #expect(try PresenceTable.Update.decode(encoded()).first?.presence == Presence(name: "Ada"))
        #expect(throws: BinaryDecodingError.invalidFlags(offset: 10)) {
            try PresenceTable.Update.decode(encoded(flag: 2))
        }
        #expect(throws: BinaryDecodingError.limitExceeded(offset: 11)) {
            try PresenceTable.Update.decode(encoded(name: Array(repeating: 0x61, count: 65)))
        }
        #expect(throws: BinaryDecodingError.invalidUTF8(offset: 11)) {
            try PresenceTable.Update.decode(encoded(name: [0xC3, 0x28]))
        }
        #expect(throws: BinaryDecodingError.invalidStamp(offset: 24)) {
            try PresenceTable.Update.decode(encoded(selection: [1, 9, 0, 0, 0, 0, 0, 0, 0, 0]))  // counter 0
        }
        let tooMany = [0x81, 0x02] + Array(repeating: rowBytes, count: 257).joined()  // 257 rows
        #expect(throws: BinaryDecodingError.limitExceeded(offset: 15)) {
            try PresenceTable.Update.decode(encoded(selection: tooMany))
        }
        #expect(throws: BinaryDecodingError.invalidFlags(offset: 18)) {
            try PresenceTable.Update.decode(encoded(drag: [1, 0, 4]))  // hover 4
        }
        #expect(throws: BinaryDecodingError.limitExceeded(offset: 18)) {
            try PresenceTable.Update.decode(encoded(pending: [1, 0, 0]))  // a drop of 0 placeholders
        }
        #expect(throws: BinaryDecodingError.limitExceeded(offset: 17)) {
            try PresenceTable.Update.decode(encoded(pending: [17] + Array(repeating: [1, 0], count: 17).joined()))
        }
        #expect(throws: BinaryDecodingError.countTooLarge(offset: 0)) {
            try PresenceTable.Update.decode([0xFF, 0xFF, 0x03])  // a count the bytes cannot hold
        }
    }

    /// Random bytes and random mutations of valid encodings never trap: each decodes, and then encodes
    /// back to bytes that decode to the same updates, or is refused with a typed error.
    @Test(arguments: RunSize.seeds("LISTSYNC_PRESENCE_SEEDS", quick: 4, long: 100))
    func mutatedEncodingsDecodeOrAreRefused(seed: UInt64) throws {
        announceSeed(seed, of: "mutatedEncodingsDecodeOrAreRefused", replay: "LISTSYNC_PRESENCE_SEEDS")
        var random = SplitMix64(seed: seed)
        func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        let valid = PresenceTable.Update.encode([
            update(
                ada, clock: 300,
                Presence(
                    name: "Ada", selection: [row(1), row(2)], drag: Presence.Drag(rows: [row(2)], hover: .onto(row(3))),
                    pendingDrops: [Presence.PendingDrop(count: 2, after: row(4))])),
            update(grace, clock: 1, nil),
        ])
        for _ in 0..<2000 {
            var bytes = below(4) == 0 ? (0..<below(40)).map { _ in UInt8(below(256)) } : valid
            for _ in 0...below(3) where !bytes.isEmpty {
                switch below(3) {
                case 0: bytes[below(bytes.count)] = UInt8(below(256))
                case 1: bytes.remove(at: below(bytes.count))
                default: bytes.insert(UInt8(below(256)), at: below(bytes.count + 1))
                }
            }
            guard let updates = try? PresenceTable.Update.decode(bytes) else { continue }
            #expect(try PresenceTable.Update.decode(PresenceTable.Update.encode(updates)) == updates, "seed \(seed)")
        }
    }

    @Test func aPresenceBeyondItsLimitsSaysWhy() {
        #expect(Presence(name: String(repeating: "é", count: 33)).limitExceeded?.contains("66 bytes") == true)
        let rows = (1...257).map { row(UInt64($0)) }
        #expect(Presence(name: "a", selection: rows).limitExceeded?.contains("257 rows are selected") == true)
        #expect(
            Presence(name: "a", drag: Presence.Drag(rows: rows)).limitExceeded?.contains("257 rows are dragged") == true
        )
        #expect(Presence(name: "a", pendingDrops: [Presence.PendingDrop(count: 0, after: nil)]).limitExceeded != nil)
        #expect(Presence(name: "a", selection: Array(rows.prefix(256))).limitExceeded == nil)
    }
}
