import ListSync
import Testing

@testable import ListSyncNetwork

/// Message encodings round-trip, and malformed bodies give the right typed error.
struct WireTests {
    /// One of each message.
    static let messages: [SyncMessage] = [
        .hello(
            Hello(
                version: SyncProtocol.version, replica: ReplicaID(42), nonce: Array(repeating: 7, count: 32),
                document: [1, 2])),
        .auth(proof: Array(repeating: 9, count: 32)),
        .close(code: 7, reason: "authenticationFailed"),
        .vector(VersionVector([ReplicaID(1): 300, ReplicaID(2): 1])),
        .vector(gapped),
        .changes(ChangeSet().encoded()),
        .ack(VersionVector()),
        .heartbeat,
    ]

    /// A version vector with ranges beyond gaps, and a replica whose first counters are missing.
    static let gapped: VersionVector = {
        var vector = VersionVector([ReplicaID(1): 5])
        vector.insert(8...9, of: ReplicaID(1))
        vector.insert(4097...4200, of: ReplicaID(1))
        vector.insert(3...3, of: ReplicaID(2))
        return vector
    }()

    @Test(arguments: messages)
    func roundTrip(_ message: SyncMessage) throws {
        #expect(try SyncMessage(decoding: message.encoded()[...]) == message)
    }

    @Test func versionVectorLayout() {
        var writer = BinaryWriter()
        VersionVector([ReplicaID(2): 300, ReplicaID(1): 5]).write(to: &writer)
        #expect(writer.bytes == [2, 1, 0, 0, 0, 0, 0, 0, 0, 5, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0xAC, 0x02, 0])
        var exact = BinaryWriter()
        var vector = VersionVector([ReplicaID(1): 5])
        vector.insert(8...9, of: ReplicaID(1))
        vector.insert(3...3, of: ReplicaID(2))
        vector.write(to: &exact)
        // Replica 1: 1...5, then 2 skipped (6, 7) and 8...9; replica 2: nothing contiguous, 3...3.
        #expect(exact.bytes == [2, 1, 0, 0, 0, 0, 0, 0, 0, 5, 1, 1, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0])
    }

    /// A body and the error it must give.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let body: [UInt8]
        let expected: SyncError
        var testDescription: String { name }
    }

    static let malformed: [Case] = {
        let hello = SyncMessage.hello(
            Hello(
                version: SyncProtocol.version, replica: ReplicaID(42), nonce: Array(repeating: 7, count: 32),
                document: [1])
        ).encoded()
        var future = hello
        future[5] = UInt8(SyncProtocol.version + 1)
        var badMagic = hello
        badMagic[1] = 0x58
        return [
            Case(
                name: "unknown type", body: [0x7F],
                expected: .unexpectedMessage(type: 0x7F, phase: "decoding (unknown type)")),
            Case(name: "future version", body: future, expected: .unsupportedVersion(SyncProtocol.version + 1)),
            Case(name: "bad magic", body: badMagic, expected: .badMagic),
            Case(
                name: "truncated hello", body: Array(hello.dropLast(3)),
                expected: .malformedMessage(type: 1, offset: 14, reason: "truncated: 32 bytes needed")),
            Case(
                name: "trailing bytes", body: [0x13, 0],
                expected: .malformedMessage(type: 0x13, offset: 1, reason: "1 trailing bytes")),
            Case(
                name: "overlong varint", body: [0x12] + Array(repeating: 0xFF, count: 10) + [1],
                expected: .malformedMessage(type: 0x12, offset: 11, reason: "varint overflows 64 bits")),
            Case(
                name: "replicas out of order",
                body: [0x10, 2, 2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0],
                expected: .malformedMessage(type: 0x10, offset: 20, reason: "replicas out of order")),
            Case(
                name: "vector entry covering nothing", body: [0x10, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                expected: .malformedMessage(type: 0x10, offset: 12, reason: "an entry covering nothing")),
        ]
    }()

    @Test(arguments: malformed)
    func rejects(_ testCase: Case) {
        #expect(throws: testCase.expected) { try SyncMessage(decoding: testCase.body[...]) }
    }

    @Test func framingRejectsOversizedAndEmptyFrames() {
        var framing = Framing(maximumFrameByteCount: 1024)
        framing.append([0, 0, 4, 1])
        #expect(throws: SyncError.frameTooLarge(length: 1025, limit: 1024)) { try framing.nextFrame() }
        var empty = Framing(maximumFrameByteCount: 1024)
        empty.append([0, 0, 0, 0])
        #expect(throws: SyncError.frameTooLarge(length: 0, limit: 1024)) { try empty.nextFrame() }
    }

    @Test func framingWaitsForWholeFrames() throws {
        var framing = Framing(maximumFrameByteCount: 1024)
        framing.append([0, 0, 0, 2, 0x13])
        #expect(try framing.nextFrame() == nil)
        framing.append([0, 0, 0, 0, 1])
        let frame = try #require(try framing.nextFrame())
        #expect(Array(frame.body) == [0x13, 0])
        #expect(framing.bufferedByteCount == 4)
    }
}
