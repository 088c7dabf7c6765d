import ListSync
import Testing

@testable import ListSyncNetwork

/// An accepted connection is routed to one of a peer's documents by its first frame (Protocol.md
/// section 2.4), refused the same way whichever document a client guessed.
struct HelloRouterTests {
    /// Three documents with secrets of their own, held to `versions`.
    static func documents(_ versions: ClosedRange<UInt64> = SyncProtocol.versions) -> [SyncSettings] {
        ["groceries", "chores", "playlist"].map {
            SyncSettings(document: $0, secret: Array("secret of the \($0) list".utf8), versions: versions)
        }
    }

    /// The HELLO frame an initiator with `settings` sends first.
    static func helloFrame(_ settings: SyncSettings, replica: UInt64 = 0x0A) -> [UInt8] {
        let node = SyncNode(replica: ReplicatedList<String>(replicaID: ReplicaID(replica)), settings: settings)
        node.open(ConnectionID(1), role: .initiator, nonce: Array(0..<32))
        return node.output(for: ConnectionID(1), limit: .max)
    }

    /// A HELLO frame with `document` in its document field (a guess, or an ID in clear), offering `versions`.
    static func probe(document: [UInt8], versions: ClosedRange<UInt64>) -> [UInt8] {
        let hello = Hello(versions: versions, replica: ReplicaID(0x0C), nonce: Array(0..<32), document: document)
        let body = SyncMessage.hello(hello).encoded()
        return Framing.lengthPrefix(body.count) + body
    }

    /// Routes `bytes` among `documents`, fed one byte at a time: nil until the frame is whole.
    static func route(_ bytes: [UInt8], among documents: [SyncSettings]) throws(SyncError) -> Int? {
        var router = HelloRouter()
        for (offset, byte) in bytes.enumerated() {
            router.receive([byte])
            let chosen = try router.route(among: documents)
            if offset < bytes.count - 1 && chosen != nil { return nil }
            if offset == bytes.count - 1 { return chosen }
        }
        return nil
    }

    /// Each document's HELLO, tagged or in clear, is routed to that document and no other.
    @Test(arguments: [5...7, 5...6] as [ClosedRange<UInt64>])
    func aHelloIsRoutedToTheDocumentItNames(initiatorVersions: ClosedRange<UInt64>) throws {
        let documents = Self.documents()
        for (index, settings) in documents.enumerated() {
            var initiator = settings
            initiator.versions = initiatorVersions
            #expect(try Self.route(Self.helloFrame(initiator), among: documents) == index)
        }
    }

    /// The chosen document's channel, fed what the router read, completes the handshake and syncs.
    @Test func theChosenDocumentsNodeTakesOverTheConnection() throws {
        let documents = Self.documents()
        let initiator = SyncNode(replica: ReplicatedList<String>(replicaID: ReplicaID(0x0A)), settings: documents[1])
        initiator.edit { $0.append("sweep") }
        initiator.open(ConnectionID(1), role: .initiator, nonce: Array(0..<32))
        var router = HelloRouter()
        router.receive(initiator.output(for: ConnectionID(1), limit: .max))
        let chosen = try #require(try router.route(among: documents))
        let responder = SyncNode(
            replica: ReplicatedList<String>(replicaID: ReplicaID(0x0B)), settings: documents[chosen])
        responder.open(ConnectionID(2), role: .responder, nonce: Array(32..<64))
        try responder.receive(router.received, on: ConnectionID(2))
        for _ in 0..<4 {
            try initiator.receive(responder.output(for: ConnectionID(2), limit: .max), on: ConnectionID(1))
            try responder.receive(initiator.output(for: ConnectionID(1), limit: .max), on: ConnectionID(2))
        }
        #expect(responder.replica.map(\.value) == ["sweep"])
    }

    /// A wrong secret, an unknown document, and a clear ID of a document held to version 7 are refused
    /// as naming no document; a client offering versions no document speaks is told the range of
    /// versions the peer's documents speak.
    @Test func aHelloThatNamesNoDocumentIsRefused() throws {
        let documents = Self.documents()
        var wrongSecret = documents[0]
        wrongSecret.secret = Array("a secret of someone else".utf8)
        #expect(throws: SyncError.wrongDocument) { try Self.route(Self.helloFrame(wrongSecret), among: documents) }
        let unknown = SyncSettings(document: "diary", secret: documents[0].secret)
        #expect(throws: SyncError.wrongDocument) { try Self.route(Self.helloFrame(unknown), among: documents) }
        var clear = Self.documents(7...7)[0]
        clear.versions = 5...6
        let mixed = [Self.documents(7...7)[0], Self.documents(5...6)[1]]
        #expect(throws: SyncError.wrongDocument) { try Self.route(Self.helloFrame(clear), among: mixed) }
        #expect(throws: SyncError.unsupportedVersion(offered: 5...6, supported: 7...7)) {
            try Self.route(Self.helloFrame(clear), among: [mixed[0]])
        }
        let apart = [Self.documents(5...5)[0], Self.documents(7...7)[1]]
        #expect(throws: SyncError.unsupportedVersion(offered: 6...6, supported: 5...7)) {
            try Self.route(Self.probe(document: documents[0].document, versions: 6...6), among: apart)
        }
    }

    /// A client probing for documents learns nothing: at each version range offered, a random tag, a
    /// wrong ID and a real ID in clear to documents held to version 7 get the same refusal, byte for byte.
    @Test func everyRefusalOfAProbeReadsTheSame() {
        let documents = Self.documents(7...7)
        var generator = SplitMix64(seed: 24)
        for versions in [5...5, 5...6, 5...7, 7...7] as [ClosedRange<UInt64>] {
            let guesses: [[UInt8]] = [
                (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) },
                Array("diary".utf8), documents[1].document,
            ]
            let closes = guesses.map { guess -> [UInt8] in
                do throws(SyncError) {
                    _ = try Self.route(Self.probe(document: guess, versions: versions), among: documents)
                    return []
                } catch {
                    return SecureChannel.plaintextClose(for: error)
                }
            }
            #expect(!closes[0].isEmpty)
            #expect(Set(closes).count == 1, "versions \(versions)")
        }
    }

    /// A first frame that is not a HELLO, does not speak the protocol, or is too long is refused as a
    /// channel would refuse it; a partial one reports how much arrived.
    @Test func aFirstFrameThatIsNoHelloIsRefused() throws {
        let documents = Self.documents()
        let heartbeat = SyncMessage.heartbeat.encoded()
        #expect(throws: SyncError.unexpectedMessage(type: MessageType.heartbeat.rawValue, phase: "in the handshake")) {
            try Self.route(Framing.lengthPrefix(heartbeat.count) + heartbeat, among: documents)
        }
        var hello = Self.helloFrame(documents[0])
        hello[5] ^= 0xFF
        #expect(throws: SyncError.badMagic) { try Self.route(hello, among: documents) }
        #expect(throws: SyncError.frameTooLarge(length: 1025, limit: 1024)) {
            try Self.route([0, 0, 4, 1], among: documents)
        }
        var router = HelloRouter()
        router.receive(Self.helloFrame(documents[0]).prefix(10))
        #expect(try router.route(among: documents) == nil)
        #expect(router.partialFrame?.received == 10)
        #expect(router.partialFrame?.expected == Self.helloFrame(documents[0]).count)
    }
}
