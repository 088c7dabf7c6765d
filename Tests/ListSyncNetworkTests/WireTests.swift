import ListSync
import Testing

@testable import ListSyncNetwork

/// Message encodings round-trip, and malformed bodies give the right typed error.
struct WireTests {
    /// One of each message.
    static let messages: [SyncMessage] = [
        .hello(
            Hello(
                versions: SyncProtocol.versions, replica: ReplicaID(42), nonce: Array(repeating: 7, count: 32),
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
                versions: SyncProtocol.versions, replica: ReplicaID(42), nonce: Array(repeating: 7, count: 32),
                document: [1])
        ).encoded()
        // Body: type, magic (4 bytes), highest version, lowest version, replica (8 bytes), nonce, document.
        var future = hello
        future.replaceSubrange(5...6, with: [9, 8])
        var older = hello
        older.remove(at: 6)
        older[5] = 4
        var inverted = hello
        inverted.replaceSubrange(5...6, with: [5, 6])
        var badMagic = hello
        badMagic[1] = 0x58
        var replicaZero = hello
        replicaZero.replaceSubrange(7..<15, with: Array(repeating: 0, count: 8))
        let replicaOne: [UInt8] = [1, 0, 0, 0, 0, 0, 0, 0]
        let limit = Dot.maximumCounter
        return [
            Case(
                name: "hello from replica 0", body: replicaZero,
                expected: .malformedMessage(type: 1, offset: 7, reason: "replica ID 0 is reserved")),
            Case(
                name: "vector of replica 0", body: [0x10, 1] + Array(repeating: 0, count: 8) + [1, 0],
                expected: .malformedMessage(type: 0x10, offset: 2, reason: "replica ID 0 is reserved")),
            Case(
                name: "vector counter above 2^62 - 1", body: [0x10, 1] + replicaOne + varint(limit + 1) + [0],
                expected: .malformedMessage(type: 0x10, offset: 10, reason: "counter \(limit + 1) above 2^62 - 1")),
            Case(
                name: "vector counter 2^64 - 1", body: [0x12, 1] + replicaOne + varint(.max) + [0],
                expected: .malformedMessage(type: 0x12, offset: 10, reason: "counter \(UInt64.max) above 2^62 - 1")),
            Case(
                name: "ack range beyond 2^62 - 1", body: [0x12, 1] + replicaOne + [1, 1] + varint(limit - 3) + [1],
                expected: .malformedMessage(type: 0x12, offset: 12, reason: "a range beyond counter 2^62 - 1")),
            Case(
                name: "empty piece", body: [0x14],
                expected: .malformedMessage(type: 0x14, offset: 1, reason: "an empty piece")),
            Case(
                name: "unknown type", body: [0x7F],
                expected: .unexpectedMessage(type: 0x7F, phase: "decoding (unknown type)")),
            Case(
                name: "future versions only", body: future,
                expected: .unsupportedVersion(offered: 8...9, supported: SyncProtocol.versions)),
            Case(
                name: "an older version's hello", body: older,
                expected: .unsupportedVersion(offered: 4...4, supported: SyncProtocol.versions)),
            Case(
                name: "lowest version above highest", body: inverted,
                expected: .malformedMessage(type: 1, offset: 6, reason: "lowest version 6 above highest 5")),
            Case(name: "bad magic", body: badMagic, expected: .badMagic),
            Case(
                name: "truncated hello", body: Array(hello.dropLast(3)),
                expected: .malformedMessage(type: 1, offset: 15, reason: "truncated: 32 bytes needed")),
            Case(
                name: "trailing bytes", body: [0x13, 0],
                expected: .malformedMessage(type: 0x13, offset: 1, reason: "1 trailing bytes")),
            Case(
                name: "overlong varint", body: [0x12] + Array(repeating: 0xFF, count: 10) + [1],
                expected: .malformedMessage(type: 0x12, offset: 11, reason: "varint overflows 64 bits")),
            Case(
                name: "replicas out of order",
                body: [0x10, 2, 2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0],
                expected: .malformedMessage(type: 0x10, offset: 12, reason: "replicas out of order")),
            Case(
                name: "vector entry covering nothing", body: [0x10, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                expected: .malformedMessage(type: 0x10, offset: 12, reason: "an entry covering nothing")),
        ]
    }()

    /// The unsigned LEB128 encoding of `value`.
    static func varint(_ value: UInt64) -> [UInt8] {
        var bytes: [UInt8] = []
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        return bytes + [UInt8(rest)]
    }

    /// The highest valid counter, in the contiguous part and in a range, decodes.
    @Test func vectorAtTheCounterLimitDecodes() throws {
        let limit = Dot.maximumCounter
        let replicaOne: [UInt8] = [1, 0, 0, 0, 0, 0, 0, 0]
        let body =
            [0x12, 2] + replicaOne + Self.varint(limit) + [0] + [2, 0, 0, 0, 0, 0, 0, 0, 1, 1]
            + Self.varint(limit - 4) + [1]
        guard case .ack(let vector) = try SyncMessage(decoding: body[...]) else { throw SyncError.badMagic }
        #expect(vector.ranges(of: ReplicaID(1)) == [1...limit])
        #expect(vector.ranges(of: ReplicaID(2)) == [1...1, (limit - 1)...limit])
    }

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
