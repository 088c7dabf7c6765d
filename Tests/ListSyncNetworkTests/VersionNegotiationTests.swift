import ListSync
import Testing

@testable import ListSyncNetwork

/// HELLO carries the range of protocol versions its sender speaks; peers whose ranges meet use the
/// highest common version, and peers whose ranges do not meet both name both ranges. Against fixtures:
/// a recorded HELLO of version 4 (before ranges) and a hand-driven initiator of a later version.
struct VersionNegotiationTests {
    /// A version 4 peer's HELLO as it went on the wire (the first frame of Protocol.md's worked example
    /// when the protocol was version 4): replica 0x0A, nonce 00 01 ... 1f, document "groceries".
    static let version4Hello: [UInt8] =
        [0, 0, 0, 0x38, 1] + Array("LSYN".utf8) + [4, 0x0A, 0, 0, 0, 0, 0, 0, 0] + Array(0..<32)
        + [9] + Array("groceries".utf8)

    /// A responder node for replica 0x0B, holding one row.
    static func responder() -> SyncNode<ReplicatedList<String>> {
        let node = SyncNode(replica: ReplicatedList<String>(replicaID: ReplicaID(0x0B)), settings: .test)
        node.edit { $0.append("eggs") }
        node.open(ConnectionID(2), role: .responder, nonce: Array(32..<64))
        return node
    }

    /// The frames in `bytes`, each with its 4-byte length prefix.
    static func frames(_ bytes: [UInt8]) throws -> [(prefix: [UInt8], body: ArraySlice<UInt8>)] {
        var framing = Framing(maximumFrameByteCount: SyncProtocol.maximumFrameByteCount)
        framing.append(bytes)
        var frames: [(prefix: [UInt8], body: ArraySlice<UInt8>)] = []
        while let frame = try framing.nextFrame() { frames.append(frame) }
        return frames
    }

    /// The plaintext CLOSE in `bytes`: its code and reason.
    static func plaintextClose(_ bytes: [UInt8]) throws -> (code: UInt8, reason: String)? {
        guard let frame = try frames(bytes).first,
            case .close(let code, let reason) = try SyncMessage(decoding: frame.body)
        else { return nil }
        return (code, reason)
    }

    @Test func aVersion4HelloIsRefusedNamingBothRanges() throws {
        let node = Self.responder()
        let refusal = SyncError.unsupportedVersion(offered: 4...4, supported: SyncProtocol.versions)
        #expect(throws: refusal) { try node.receive(Self.version4Hello, on: ConnectionID(2)) }
        let close = try #require(try Self.plaintextClose(node.close(ConnectionID(2), because: refusal)))
        #expect(close.code == 5)
        #expect(close.reason == "unsupportedVersion: protocol versions 4...4 offered, 5...7 supported")
    }

    /// A hand-driven initiator, replica 0x0A, offering `versions` to ``responder()`` (which shows a
    /// presence), through the handshake: the responder node, the frame keys, and what the responder
    /// sent sealed, decrypted.
    struct HandDriven {
        let node: SyncNode<ReplicatedList<String>>
        let keys: HandshakeKeys
        var sending: FrameCipher
        var receiving: FrameCipher
        var received: [SyncMessage] = []

        init(versions: ClosedRange<UInt64>) throws {
            node = VersionNegotiationTests.responder()
            node.tickPresence(now: .now)
            try node.setPresence(Presence(name: "Bea"), wallClockMilliseconds: 1, now: .now)
            let tagged = DocumentTag.isUsed(initiatorVersions: versions)
            let ours = Hello(
                versions: versions, replica: ReplicaID(0x0A), nonce: Array(0..<32),
                document: DocumentTag.field(for: .test, nonce: Array(0..<32), tagged: tagged))
            let helloBody = SyncMessage.hello(ours).encoded()
            _ = try node.receive(Framing.lengthPrefix(helloBody.count) + helloBody, on: ConnectionID(2))
            let replyFrames = try VersionNegotiationTests.frames(node.output(for: ConnectionID(2), limit: .max))
            guard case .hello(let theirs) = try SyncMessage(decoding: try #require(replyFrames.first).body) else {
                throw SyncError.badMagic
            }
            #expect(theirs.versions == SyncProtocol.versions)
            keys = HandshakeKeys(
                secret: SyncSettings.test.secret, initiatorHello: ours, initiatorBody: helloBody,
                responderHello: theirs, responderBody: Array(replyFrames[0].body))
            sending = FrameCipher(key: keys.initiatorToResponder)
            receiving = FrameCipher(key: keys.responderToInitiator)
            let auth = SyncMessage.auth(proof: keys.initiatorProof).encoded()
            #expect(try node.receive(Framing.lengthPrefix(auth.count) + auth, on: ConnectionID(2)) == ReplicaID(0x0A))
            let frames = try VersionNegotiationTests.frames(node.output(for: ConnectionID(2), limit: .max))
            #expect(try SyncMessage(decoding: frames[0].body) == .auth(proof: keys.responderProof))
            try open(frames.dropFirst())
        }

        /// Decrypts sealed frames from the responder into ``received``.
        mutating func open(_ frames: some Sequence<(prefix: [UInt8], body: ArraySlice<UInt8>)>) throws {
            for frame in frames {
                received.append(
                    try SyncMessage(decoding: receiving.open(prefix: frame.prefix, sealed: frame.body)[...]))
            }
        }

        /// Sends `body` sealed to the responder; then takes what it answers.
        mutating func send(_ body: [UInt8]) throws {
            try node.receive(sending.seal(body), on: ConnectionID(2))
            try open(VersionNegotiationTests.frames(node.output(for: ConnectionID(2), limit: .max)))
        }

        /// Whether the responder sent a PRESENCE.
        var receivedPresence: Bool { received.contains { if case .presence = $0 { true } else { false } } }
    }

    /// A later peer that speaks 5 to 8 dials a peer that speaks 5 to 7: they agree on 7, the whole
    /// handshake works as in version 5 (with the document named by its tag), and the first sealed frame
    /// is VECTOR, then the presence.
    @Test func aLaterPeerWhoseRangeMeetsOursSyncsAtTheHighestCommonVersion() throws {
        #expect(SyncProtocol.highestCommonVersion(with: 5...8) == 7)
        #expect(SyncProtocol.highestCommonVersion(with: 1...5) == 5)
        var peer = try HandDriven(versions: 5...8)
        #expect(peer.received.first == .vector(peer.node.replica.versionVector))
        try peer.send(SyncMessage.vector(VersionVector()).encoded())
        let update = PresenceTable.Update(replica: ReplicaID(0x0B), clock: 1, presence: Presence(name: "Bea"))
        #expect(peer.received.contains(.presence([update])), "\(peer.received)")
    }

    /// A peer of version 5 is never sent PRESENCE, and one it sends anyway is refused (error 3).
    @Test func aVersion5PeerIsNeverSentPresence() throws {
        var peer = try HandDriven(versions: 5...5)
        try peer.send(SyncMessage.vector(VersionVector()).encoded())
        try peer.node.setPresence(Presence(name: "Bea again"), wallClockMilliseconds: 2, now: .now)
        try peer.send(SyncMessage.heartbeat.encoded())
        #expect(!peer.receivedPresence, "\(peer.received)")
        #expect(peer.received.contains(.vector(peer.node.replica.versionVector)))
        let presence = SyncMessage.presence([.init(replica: ReplicaID(0x0A), clock: 1, presence: nil)]).encoded()
        #expect(throws: SyncError.unexpectedMessage(type: 0x15, phase: "speaking version 5")) {
            try peer.send(presence)
        }
    }

    /// A PRESENCE that does not parse closes the connection naming the byte at fault (error 1), and one
    /// before the peer's VECTOR is refused (error 3).
    @Test func aMalformedOrEarlyPresenceIsRefused() throws {
        var early = try HandDriven(versions: 5...6)
        let departure = SyncMessage.presence([.init(replica: ReplicaID(0x0A), clock: 1, presence: nil)]).encoded()
        #expect(throws: SyncError.unexpectedMessage(type: 0x15, phase: "before VECTOR")) { try early.send(departure) }
        var peer = try HandDriven(versions: 5...6)
        try peer.send(SyncMessage.vector(VersionVector()).encoded())
        // One update: replica 0x0A, clock 1, then flag 2 where only 0 or 1 may stand.
        let malformed: [UInt8] = [0x15, 1, 0x0A, 0, 0, 0, 0, 0, 0, 0, 1, 2]
        #expect(
            throws: SyncError.malformedMessage(type: 0x15, offset: 11, reason: "presence: invalidFlags(offset: 10)")
        ) {
            try peer.send(malformed)
        }
    }

    /// Ranges that do not meet: the side that reads the other's HELLO refuses it, naming both ranges,
    /// whether it is the responder or the initiator.
    @Test(arguments: [ConnectionRole.responder, .initiator])
    func rangesThatDoNotMeetAreRefusedNamingBoth(role: ConnectionRole) throws {
        let node = SyncNode(replica: ReplicatedList<String>(replicaID: ReplicaID(0x0B)), settings: .test)
        node.open(ConnectionID(3), role: role, nonce: Array(32..<64))
        _ = node.output(for: ConnectionID(3), limit: .max)
        let later = SyncMessage.hello(
            Hello(versions: 8...9, replica: ReplicaID(0x0A), nonce: Array(0..<32), document: Array("groceries".utf8))
        ).encoded()
        let refusal = SyncError.unsupportedVersion(offered: 8...9, supported: SyncProtocol.versions)
        #expect(throws: refusal) { try node.receive(Framing.lengthPrefix(later.count) + later, on: ConnectionID(3)) }
        let close = try #require(try Self.plaintextClose(node.close(ConnectionID(3), because: refusal)))
        #expect(close.code == 5 && close.reason.contains("8...9 offered, 5...7 supported"))
    }
}
