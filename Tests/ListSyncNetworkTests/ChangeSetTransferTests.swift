import ListSync
import Testing

@testable import ListSyncNetwork

/// Change sets larger than a frame: cut into parts, single rows in pieces, every frame within the limit,
/// and a receiver's bound on a change set put together.
struct ChangeSetTransferTests {
    /// Settings whose frames are at most 4 KiB.
    static func smallFrames(changeSetLimit: Int = 256 << 20) -> SyncSettings {
        var settings = SyncSettings.test
        settings.maximumFrameByteCount = 4096
        settings.maximumChangeSetByteCount = changeSetLimit
        return settings
    }

    /// The length of every frame in `pair`'s transcript.
    static func frameLengths(_ pair: NodePair) -> [Int] {
        pair.transcript.flatMap { splitFrames($0.bytes) }.map { $0.count - 4 }
    }

    @Test func aCatchUpLargerThanAFrameTravelsInFramesWithinTheLimit() throws {
        var pair = NodePair(initiatorSettings: Self.smallFrames(), responderSettings: Self.smallFrames())
        pair.initiator.edit {
            $0.append(contentsOf: (0..<300).map { "row \($0) " + String(repeating: "x", count: 80) })
        }
        try pair.exchange()
        #expect(Array(pair.responder.replica) == Array(pair.initiator.replica))
        #expect(pair.responder.replica.versionVector == pair.initiator.replica.versionVector)
        #expect(Self.frameLengths(pair).allSatisfy { $0 <= 4096 })
        #expect(pair.initiator.statistics.changeSetsSent > 5)
    }

    @Test func aRowLargerThanAFrameTravelsInPiecesLiveAndInACatchUp() throws {
        var pair = NodePair(initiatorSettings: Self.smallFrames(), responderSettings: Self.smallFrames())
        pair.initiator.edit { $0.append(String(repeating: "a", count: 20_000)) }
        try pair.exchange()
        pair.responder.edit { $0.append(String(repeating: "b", count: 30_000)) }
        try pair.exchange()
        #expect(pair.initiator.replica.map(\.value).map(\.count) == [20_000, 30_000])
        #expect(Array(pair.responder.replica) == Array(pair.initiator.replica))
        #expect(Self.frameLengths(pair).allSatisfy { $0 <= 4096 })
        #expect(Self.frameLengths(pair).count > 12)
    }

    /// A heartbeat and a live edit queued while a row is on its way in pieces wait for its last piece
    /// (the receiver accepts nothing else in between).
    @Test func nothingIsSentBetweenThePiecesOfARow() throws {
        var pair = NodePair(initiatorSettings: Self.smallFrames(), responderSettings: Self.smallFrames())
        try pair.exchange()
        pair.initiator.edit { $0.append(String(repeating: "a", count: 20_000)) }
        let firstPiece = pair.initiator.output(for: NodePair.initiatorConnection, limit: 1)
        #expect(splitFrames(firstPiece).count == 1)
        try pair.responder.receive(firstPiece, on: NodePair.responderConnection)
        pair.initiator.queueHeartbeat(on: NodePair.initiatorConnection)
        pair.initiator.edit { $0.append("small") }
        try pair.exchange()
        #expect(pair.responder.replica.map(\.value).map(\.count) == [20_000, 5])
    }

    /// A change set put together beyond the receiver's bound closes the connection; nothing merged.
    @Test func aChangeSetBeyondTheReceiversBoundIsRefused() throws {
        var pair = NodePair(
            initiatorSettings: Self.smallFrames(), responderSettings: Self.smallFrames(changeSetLimit: 10_000))
        pair.initiator.edit { $0.append(String(repeating: "a", count: 20_000)) }
        #expect(throws: SyncError.changeSetTooLarge(length: 3 * (4096 - 17), limit: 10_000)) { try pair.exchange() }
        #expect(pair.responder.replica.isEmpty)
        #expect(!pair.responder.hasOutput(for: NodePair.responderConnection), "no ACK for what was refused")
    }

    /// A change set that decodes but does not merge is not acknowledged.
    @Test func aRejectedChangeSetIsNotAcknowledged() throws {
        let initiator = SyncNode(replica: TamperedReplica(ReplicaID(0x0A)), settings: .test)
        let responder = SyncNode(replica: ReplicatedList<String>(replicaID: ReplicaID(0x0B)), settings: .test)
        let (first, second) = (ConnectionID(1), ConnectionID(2))
        initiator.open(first, role: .initiator, nonce: Array(0..<32))
        responder.open(second, role: .responder, nonce: Array(32..<64))
        var failure: SyncError?
        for _ in 0..<10 where failure == nil {
            do throws(SyncError) {
                try responder.receive(initiator.output(for: first, limit: Int.max), on: second)
                try initiator.receive(responder.output(for: second, limit: Int.max), on: first)
            } catch {
                failure = error
            }
        }
        guard case .invalidChanges = failure else {
            Issue.record("expected invalidChanges, got \(String(describing: failure))")
            return
        }
        #expect(responder.replica.isEmpty)
        #expect(!responder.hasOutput(for: second), "no ACK for a rejected change set")
    }
}

/// A replica whose change sets cover operation 6 instead of their row's 1: they decode, and every merge
/// rejects them.
final class TamperedReplica: SyncReplica {
    private let list: ReplicatedList<String>

    init(_ replica: ReplicaID) {
        list = ReplicatedList(replicaID: replica)
        list.append("uncovered")
    }

    var replicaID: ReplicaID { list.replicaID }
    var versionVector: VersionVector { list.versionVector }
    func hasSeen(_ changes: ChangeSet) -> Bool { list.hasSeen(changes) }
    func merge(received changes: ChangeSet) throws -> ListChange { try list.merge(changes) }
    func commit(_ body: (ReplicatedList<String>) -> Void) -> ListChange { list.commit(body) }
    func read<Result: Sendable>(_ body: (ReplicatedList<String>) -> Result) -> Result { body(list) }

    /// The real change set with its one coverage range moved from 1...1 to 6...6.
    func changes(since vector: VersionVector) -> ChangeSet {
        var bytes = list.changes(since: vector).encoded()
        let typeLength = Int(bytes[14])
        let coverage = 15 + typeLength + 1  // past the types and the empty field name table
        precondition(bytes[coverage..<coverage + 5] == [1, 0, 1, 0, 0], "one entry of one range, 1...1")
        bytes[coverage + 3] = 5
        return (try? ChangeSet(decoding: bytes)) ?? ChangeSet()
    }
}
