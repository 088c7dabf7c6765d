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
        #expect(close.reason == "unsupportedVersion: protocol versions 4...4 offered, 5...5 supported")
    }

    /// A later peer that speaks 5 to 7 dials a peer that speaks 5: they agree on 5, and the whole
    /// handshake and the first sealed frame work as in version 5.
    @Test func aLaterPeerWhoseRangeMeetsOursSyncsAtTheHighestCommonVersion() throws {
        #expect(SyncProtocol.highestCommonVersion(with: 5...7) == 5)
        #expect(SyncProtocol.highestCommonVersion(with: 1...5) == 5)
        let node = Self.responder()
        let ours = Hello(
            versions: 5...7, replica: ReplicaID(0x0A), nonce: Array(0..<32), document: Array("groceries".utf8))
        let helloBody = SyncMessage.hello(ours).encoded()
        _ = try node.receive(Framing.lengthPrefix(helloBody.count) + helloBody, on: ConnectionID(2))
        let replyFrames = try Self.frames(node.output(for: ConnectionID(2), limit: .max))
        guard case .hello(let theirs) = try SyncMessage(decoding: try #require(replyFrames.first).body) else {
            Issue.record("the responder did not answer with HELLO")
            return
        }
        #expect(theirs.versions == SyncProtocol.versions)
        let keys = HandshakeKeys(
            secret: SyncSettings.test.secret, initiatorHello: ours, initiatorBody: helloBody, responderHello: theirs,
            responderBody: Array(replyFrames[0].body))
        let auth = SyncMessage.auth(proof: keys.initiatorProof).encoded()
        #expect(try node.receive(Framing.lengthPrefix(auth.count) + auth, on: ConnectionID(2)) == ReplicaID(0x0A))
        let sealed = try Self.frames(node.output(for: ConnectionID(2), limit: .max))
        #expect(try SyncMessage(decoding: sealed[0].body) == .auth(proof: keys.responderProof))
        var receiving = FrameCipher(key: keys.responderToInitiator)
        let vector = try SyncMessage(decoding: receiving.open(prefix: sealed[1].prefix, sealed: sealed[1].body)[...])
        #expect(vector == .vector(node.replica.versionVector))
    }

    /// Ranges that do not meet: the side that reads the other's HELLO refuses it, naming both ranges,
    /// whether it is the responder or the initiator.
    @Test(arguments: [ConnectionRole.responder, .initiator])
    func rangesThatDoNotMeetAreRefusedNamingBoth(role: ConnectionRole) throws {
        let node = SyncNode(replica: ReplicatedList<String>(replicaID: ReplicaID(0x0B)), settings: .test)
        node.open(ConnectionID(3), role: role, nonce: Array(32..<64))
        _ = node.output(for: ConnectionID(3), limit: .max)
        let later = SyncMessage.hello(
            Hello(versions: 6...9, replica: ReplicaID(0x0A), nonce: Array(0..<32), document: Array("groceries".utf8))
        ).encoded()
        let refusal = SyncError.unsupportedVersion(offered: 6...9, supported: SyncProtocol.versions)
        #expect(throws: refusal) { try node.receive(Framing.lengthPrefix(later.count) + later, on: ConnectionID(3)) }
        let close = try #require(try Self.plaintextClose(node.close(ConnectionID(3), because: refusal)))
        #expect(close.code == 5 && close.reason.contains("6...9 offered, 5...5 supported"))
    }
}
