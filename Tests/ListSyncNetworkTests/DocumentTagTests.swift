import ListSync
import Testing

@testable import ListSyncNetwork

/// Protocol version 7 names the document in HELLO by a tag (Protocol.md sections 2.3, 2.4 and 2.9).
struct DocumentTagTests {
    /// Settings of `groceries` speaking `versions`, with the test secret or another one.
    static func settings(
        _ versions: ClosedRange<UInt64>, secret: String = "correct horse battery staple"
    ) -> SyncSettings {
        SyncSettings(document: "groceries", secret: Array(secret.utf8), versions: versions)
    }

    /// The HELLOs' `document` fields, initiator's first, and the version each side settled on.
    static func handshake(_ pair: inout NodePair) throws -> (fields: [[UInt8]], versions: [UInt64?]) {
        try pair.exchange()
        let hellos = pair.transcript.flatMap { splitFrames($0.bytes) }.filter { $0[4] == MessageType.hello.rawValue }
        let fields = try hellos.map { frame -> [UInt8] in
            guard case .hello(let hello) = try SyncMessage(decoding: frame[4...]) else { return [] }
            return hello.document
        }
        let versions = [
            pair.initiator.sessions[NodePair.initiatorConnection]?.channel.version,
            pair.responder.sessions[NodePair.responderConnection]?.channel.version,
        ]
        return (fields, versions)
    }

    /// Test vector of Protocol.md section 2.3, computed independently (Python's hmac module).
    @Test func theTagIsTheFirst16BytesOfTheHMACOfIDAndNonce() {
        let tag = DocumentTag.field(for: Self.settings(5...7), nonce: Array(0..<32), tagged: true)
        #expect(tag.hexadecimal == "896a2512ad3f7f9222a93d5da6cf3fb0")
        let clear = DocumentTag.field(for: Self.settings(5...7), nonce: Array(0..<32), tagged: false)
        #expect(clear == Array("groceries".utf8))
    }

    /// Both HELLOs carry their sender's tag (each with its own nonce); the ID never travels.
    @Test func version7HellosCarryTagsAndNeverTheDocumentID() throws {
        var pair = NodePair()
        pair.initiator.edit { $0.append("milk") }
        let (fields, versions) = try Self.handshake(&pair)
        #expect(fields.map(\.hexadecimal) == ["896a2512ad3f7f9222a93d5da6cf3fb0", "e53c73b932ac96aa435923588f51eb32"])
        #expect(versions == [7, 7])
        #expect(pair.responder.replica.map(\.value) == ["milk"])
        let everything = pair.transcript.flatMap(\.bytes)
        #expect(!String(decoding: everything, as: UTF8.self).contains("groceries"))
    }

    /// An initiator of 5...6 names the document in clear, and the responder answers in clear; a
    /// responder held at 5...6 still reads a 5...7 initiator's tag, and both settle on version 6.
    @Test(arguments: [(5...6, 5...7), (5...7, 5...6)] as [(ClosedRange<UInt64>, ClosedRange<UInt64>)])
    func peersOfVersion6SyncWithTheirChoiceOfNaming(initiator: ClosedRange<UInt64>, responder: ClosedRange<UInt64>)
        throws
    {
        var pair = NodePair(initiatorSettings: Self.settings(initiator), responderSettings: Self.settings(responder))
        pair.initiator.edit { $0.append("milk") }
        let (fields, versions) = try Self.handshake(&pair)
        let clear = initiator.upperBound < 7
        #expect(fields.map { $0 == Array("groceries".utf8) } == [clear, clear])
        #expect(fields.allSatisfy { $0.count == (clear ? 9 : DocumentTag.byteCount) })
        #expect(versions == [6, 6])
        #expect(pair.responder.replica.map(\.value) == ["milk"])
    }

    /// With a tag, a wrong secret is a wrong document: the responder cannot tell the two apart, and
    /// sends nothing but its plaintext CLOSE (not even its HELLO).
    @Test func aWrongSecretAtVersion7IsRefusedBeforeTheResponderSaysAnything() throws {
        var pair = NodePair(initiatorSettings: Self.settings(5...7, secret: "incorrect horse battery"))
        pair.responder.edit { $0.append("a secret row") }
        #expect(throws: SyncError.wrongDocument) { try pair.exchange() }
        #expect(pair.transcript.allSatisfy { $0.fromInitiator })
        let close = pair.responder.close(NodePair.responderConnection, because: .wrongDocument)
        #expect(splitFrames(close).map { $0[4] } == [MessageType.close.rawValue])
    }

    /// A responder whose HELLO names another document (a forged or corrupted tag) is refused by the
    /// initiator before it sends its proof.
    @Test func aResponderHelloWithAnotherTagIsRefused() throws {
        var pair = NodePair()
        try pair.responder.receive(pair.takeFromInitiator(), on: NodePair.responderConnection)
        var hello = pair.takeFromResponder()
        hello[hello.count - 1] ^= 1  // the last byte of the responder's tag
        #expect(throws: SyncError.wrongDocument) { try pair.initiator.receive(hello, on: NodePair.initiatorConnection) }
        #expect(pair.takeFromInitiator().isEmpty)
    }

    /// A responder held at 7...7 refuses a 5...6 initiator by its own range, naming both, before it reads
    /// the document: a right and a wrong ID in clear read the same, so a guessed ID is never confirmed.
    @Test(arguments: ["groceries", "attic"])
    func aRangeOutsideTheDocumentsVersionsIsRefusedNamingBoth(document: String) {
        let initiator = SyncSettings(document: document, secret: SyncSettings.test.secret, versions: 5...6)
        var pair = NodePair(initiatorSettings: initiator, responderSettings: Self.settings(7...7))
        #expect(throws: SyncError.unsupportedVersion(offered: 5...6, supported: 7...7)) { try pair.exchange() }
    }
}

extension Array where Element == UInt8 {
    /// Lower-case hexadecimal, two digits a byte.
    fileprivate var hexadecimal: String {
        map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
    }
}
