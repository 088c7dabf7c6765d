import ListSync
import Testing

@testable import ListSyncNetwork

/// Mutual authentication, replay protection, frame integrity and document isolation, in memory.
struct HandshakeTests {
    /// Settings with another secret, at version 6: from version 7 HELLO's tag already tells a wrong secret
    /// (``DocumentTagTests``), so the proofs are tested where the HELLOs name the document in clear.
    static let wrongSecret = SyncSettings(
        document: "groceries", secret: Array("incorrect horse battery".utf8), versions: 5...6)
    /// The right secret at version 6.
    static let rightSecret = SyncSettings(document: "groceries", secret: SyncSettings.test.secret, versions: 5...6)

    @Test func honestPeersAuthenticateAndSync() throws {
        var pair = NodePair()
        pair.initiator.edit { $0.append("milk") }
        try pair.exchange()
        #expect(pair.responder.replica.map(\.value) == ["milk"])
        #expect(pair.initiator.isAuthenticated(NodePair.initiatorConnection))
    }

    @Test func wrongSecretIsRejectedBeforeAnyDocumentData() {
        var pair = NodePair(initiatorSettings: Self.wrongSecret)
        pair.responder.edit { $0.append("a secret row") }
        #expect(throws: SyncError.authenticationFailed) { try pair.exchange() }
        let close = pair.responder.close(NodePair.responderConnection, because: .authenticationFailed)
        // The responder sent only its HELLO; its CLOSE is plaintext and names the error only.
        let sent = pair.transcript.filter { !$0.fromInitiator }.flatMap(\.bytes)
        #expect(splitFrames(sent).map { $0[4] } == [MessageType.hello.rawValue])
        #expect(close[4] == MessageType.close.rawValue)
        #expect(!String(decoding: sent + close, as: UTF8.self).contains("secret row"))
    }

    @Test func responderWithWrongSecretIsRejectedByInitiator() throws {
        var pair = NodePair(initiatorSettings: Self.rightSecret, responderSettings: Self.wrongSecret)
        let hello = pair.takeFromInitiator()
        try pair.responder.receive(hello, on: NodePair.responderConnection)
        try pair.initiator.receive(pair.takeFromResponder(), on: NodePair.initiatorConnection)
        // The initiator's proof does not verify at the responder; a forged responder proof fails too.
        #expect(throws: SyncError.authenticationFailed) {
            try pair.responder.receive(pair.takeFromInitiator(), on: NodePair.responderConnection)
        }
        let forged = Framing.lengthPrefix(33) + [MessageType.auth.rawValue] + Array(repeating: 0, count: 32)
        #expect(throws: SyncError.authenticationFailed) {
            try pair.initiator.receive(forged, on: NodePair.initiatorConnection)
        }
    }

    /// The initiator that rejects the responder's proof seals its CLOSE: the responder, which sent that
    /// proof after verifying the initiator's, already expects sealed frames, and learns why (error 7)
    /// instead of failing to open a plaintext frame (error 8).
    @Test func initiatorRejectingTheResponderProofSealsItsClose() throws {
        var pair = NodePair()
        try pair.responder.receive(pair.takeFromInitiator(), on: NodePair.responderConnection)
        try pair.initiator.receive(pair.takeFromResponder(), on: NodePair.initiatorConnection)
        try pair.responder.receive(pair.takeFromInitiator(), on: NodePair.responderConnection)
        var fromResponder = pair.takeFromResponder()
        #expect(fromResponder[4] == MessageType.auth.rawValue)
        fromResponder[5] ^= 1  // the first byte of proof_R
        #expect(throws: SyncError.authenticationFailed) {
            try pair.initiator.receive(fromResponder, on: NodePair.initiatorConnection)
        }
        let close = pair.initiator.close(NodePair.initiatorConnection, because: .authenticationFailed)
        #expect(throws: SyncError.closedByPeer(code: 7, reason: SyncError.authenticationFailed.description)) {
            try pair.responder.receive(close, on: NodePair.responderConnection)
        }
    }

    @Test func wrongDocumentIsRejected() {
        var pair = NodePair(initiatorSettings: SyncSettings(document: "other", secret: SyncSettings.test.secret))
        #expect(throws: SyncError.wrongDocument) { try pair.exchange() }
    }

    @Test func connectingToItselfIsRejected() {
        let node = SyncNode(replica: ReplicatedList<String>(replicaID: ReplicaID(5)), settings: .test)
        let twin = SyncNode(replica: ReplicatedList<String>(replicaID: ReplicaID(5)), settings: .test)
        var pair = NodePair(initiator: node, responder: twin)
        #expect(throws: SyncError.selfConnection) { try pair.exchange() }
    }

    /// Everything an honest initiator sent, replayed to a responder with a fresh nonce, fails authentication.
    @Test func recordedSessionCannotBeReplayed() throws {
        var recorded = NodePair()
        recorded.initiator.edit { $0.append("milk") }
        try recorded.exchange()
        let initiatorBytes = recorded.transcript.filter(\.fromInitiator).flatMap(\.bytes)
        let victim = SyncNode(replica: ReplicatedList<String>(replicaID: ReplicaID(0x0B)), settings: .test)
        victim.open(ConnectionID(9), role: .responder, nonce: Array(repeating: 0xEE, count: 32))
        #expect(throws: SyncError.authenticationFailed) { try victim.receive(initiatorBytes, on: ConnectionID(9)) }
        #expect(victim.replica.isEmpty)
    }

    /// One flipped bit anywhere in the sealed part of a frame fails its tag check.
    @Test(arguments: [4, 5, 12, 30])
    func flippedBitIsRejected(position: Int) throws {
        var pair = NodePair()
        try pair.exchange()
        pair.initiator.edit { $0.append("milk") }
        var frame = pair.takeFromInitiator()
        let limit = frame.count - 1
        frame[min(position, limit)] ^= 0x10
        #expect(throws: SyncError.decryptionFailed(frame: 1)) {
            try pair.responder.receive(frame, on: NodePair.responderConnection)
        }
        #expect(pair.responder.replica.isEmpty)
    }

    /// A dropped frame makes the next one fail (counters disagree), and a replayed frame fails too.
    @Test func droppedOrReplayedFrameIsRejected() throws {
        var pair = NodePair()
        try pair.exchange()
        pair.initiator.edit { $0.append("milk") }
        let first = pair.takeFromInitiator()
        pair.initiator.edit { $0.append("eggs") }
        let second = pair.takeFromInitiator()
        #expect(throws: SyncError.decryptionFailed(frame: 1)) {
            try pair.responder.receive(second, on: NodePair.responderConnection)
        }
        var replay = NodePair()
        try replay.exchange()
        replay.initiator.edit { $0.append("milk") }
        let frame = replay.takeFromInitiator()
        try replay.responder.receive(frame, on: NodePair.responderConnection)
        #expect(throws: SyncError.decryptionFailed(frame: 2)) {
            try replay.responder.receive(frame, on: NodePair.responderConnection)
        }
        #expect(first != second)
    }

    /// Before authentication frames are small, so an unauthenticated peer cannot make one buffer much.
    @Test func largeFrameBeforeAuthenticationIsRejected() {
        var pair = NodePair()
        _ = pair.takeFromInitiator()
        #expect(throws: SyncError.frameTooLarge(length: 2000, limit: SyncProtocol.maximumHandshakeFrameByteCount)) {
            try pair.responder.receive(Framing.lengthPrefix(2000) + [1], on: NodePair.responderConnection)
        }
    }

    @Test func unknownVersionIsRejected() {
        var pair = NodePair()
        var hello = pair.takeFromInitiator()
        hello.replaceSubrange(9...10, with: [9, 8])  // after the length prefix, type and magic
        #expect(throws: SyncError.unsupportedVersion(offered: 8...9, supported: SyncProtocol.versions)) {
            try pair.responder.receive(hello, on: NodePair.responderConnection)
        }
    }
}
