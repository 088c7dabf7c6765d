import ListSync
import ListSyncCrypto

/// One connection's handshake, framing and encryption: bytes in, authenticated messages out (no I/O).
///
/// Before authentication only HELLO, AUTH and CLOSE frames are accepted and nothing about the document is
/// sent; afterwards every frame is sealed with the key of its direction (Protocol.md sections 2.4 to 2.6).
struct SecureChannel {
    /// What the channel has to report after consuming bytes.
    enum Event {
        /// The handshake succeeded; the peer is this replica.
        case authenticated(ReplicaID)
        /// An authenticated message arrived.
        case message(SyncMessage)
    }

    /// Handshake progress.
    private enum Phase {
        case awaitingHello
        case awaitingAuth(HandshakeKeys, peer: ReplicaID)
        case established(sending: FrameCipher, receiving: FrameCipher)
    }

    /// This side's role.
    let role: ConnectionRole
    /// Shared settings: document, secret, limits.
    private let settings: SyncSettings
    /// This side's HELLO (a responder's names its document only once the initiator's HELLO arrived).
    private var hello: Hello
    /// Incoming frames.
    private var framing: Framing
    /// Where the handshake is.
    private var phase = Phase.awaitingHello
    /// This side's HELLO body, and the peer's once received (initiator's first).
    private var transcript: [[UInt8]] = []
    /// Complete frames consumed so far (a transport's liveness signal: bytes alone may be a slowloris).
    private(set) var framesReceived = 0
    /// The protocol version both sides use, once the peer's HELLO arrived: the highest both speak.
    private(set) var version: UInt64?
    /// Handshake bytes waiting to be sent.
    private(set) var pendingHandshakeBytes: [UInt8] = []
    /// The initiator's sending cipher once it rejected the responder's proof: the responder sent that
    /// proof only after verifying the initiator's, so it already expects sealed frames, and the CLOSE
    /// telling it why is sealed (Protocol.md section 2.4).
    private var rejectedResponderCipher: FrameCipher?

    /// A channel for `replica` with a fresh `nonce` of ``Hello/nonceByteCount`` bytes.
    init(role: ConnectionRole, replica: ReplicaID, settings: SyncSettings, nonce: [UInt8]) {
        precondition(nonce.count == Hello.nonceByteCount, "a nonce has \(Hello.nonceByteCount) bytes")
        self.role = role
        self.settings = settings
        // A responder names the document once it knows whether the initiator uses tags.
        let tagged = DocumentTag.isUsed(initiatorVersions: settings.versions)
        self.hello = Hello(
            versions: settings.versions, replica: replica, nonce: nonce,
            document: role == .initiator ? DocumentTag.field(for: settings, nonce: nonce, tagged: tagged) : [])
        self.framing = Framing(maximumFrameByteCount: SyncProtocol.maximumHandshakeFrameByteCount)
        if role == .initiator { sendHandshake(.hello(hello)) }
    }

    /// Whether the handshake has succeeded.
    var isAuthenticated: Bool {
        if case .established = phase { return true }
        return false
    }

    /// Bytes received and not yet part of a complete frame, and the length of the frame they start.
    var partialFrame: (received: Int, expected: Int)? {
        guard framing.bufferedByteCount > 0 else { return nil }
        return (framing.bufferedByteCount, 4 + (framing.announcedLength ?? 0))
    }

    /// Hands over the handshake bytes to send.
    mutating func takeHandshakeBytes() -> [UInt8] {
        defer { pendingHandshakeBytes = [] }
        return pendingHandshakeBytes
    }

    /// Appends received bytes; call ``nextEvent()`` until it returns nil.
    mutating func receive(_ bytes: some Collection<UInt8>) { framing.append(bytes) }

    /// Consumes the next complete frame; throws when the peer misbehaves (the connection must then close).
    mutating func nextEvent() throws(SyncError) -> Event? {
        while let (prefix, sealed) = try framing.nextFrame() {
            framesReceived += 1
            switch phase {
            case .established(let sending, var receiving):
                let body = try receiving.open(prefix: prefix, sealed: sealed)
                phase = .established(sending: sending, receiving: receiving)
                let message = try SyncMessage(decoding: body[...])
                switch message {
                case .hello, .auth: throw .unexpectedMessage(type: message.type.rawValue, phase: "established")
                case .close(let code, let reason): throw .closedByPeer(code: code, reason: reason)
                default: return .message(message)
                }
            case .awaitingHello, .awaitingAuth:
                if let event = try handshake(SyncMessage(decoding: sealed), body: Array(sealed)) { return event }
            }
        }
        return nil
    }

    /// Seals a message for the peer; only after authentication.
    mutating func seal(_ message: SyncMessage) -> [UInt8] {
        guard case .established(var sending, let receiving) = phase else {
            preconditionFailure("sealing a message before the handshake")
        }
        let frame = sending.seal(message.encoded())
        phase = .established(sending: sending, receiving: receiving)
        return frame
    }

    /// The CLOSE frame telling the peer why: plaintext during the handshake, sealed once the peer
    /// expects sealed frames.
    mutating func closeFrame(for error: SyncError) -> [UInt8] {
        let message = SyncMessage.close(code: error.code, reason: error.description)
        if isAuthenticated { return seal(message) }
        if var cipher = rejectedResponderCipher { return cipher.seal(message.encoded()) }
        return Self.plaintextClose(for: error)
    }

    /// The plaintext CLOSE frame for `error`: what a peer that has no channel yet (an accepted connection
    /// refused before it is routed to a document) sends.
    static func plaintextClose(for error: SyncError) -> [UInt8] {
        let body = SyncMessage.close(code: error.code, reason: error.description).encoded()
        return Framing.lengthPrefix(body.count) + body
    }

    /// Queues a plaintext handshake message, remembering its body for the transcript.
    private mutating func sendHandshake(_ message: SyncMessage) {
        let body = message.encoded()
        if case .hello = message { transcript.append(body) }
        pendingHandshakeBytes += Framing.lengthPrefix(body.count) + body
    }

    /// Advances the handshake with one plaintext message.
    private mutating func handshake(_ message: SyncMessage, body: [UInt8]) throws(SyncError) -> Event? {
        switch (phase, message) {
        case (_, .close(let code, let reason)):
            throw .closedByPeer(code: code, reason: reason)
        case (.awaitingHello, .hello(let peer)):
            guard let common = SyncProtocol.highestCommonVersion(of: settings.versions, and: peer.versions) else {
                throw .unsupportedVersion(offered: peer.versions, supported: settings.versions)
            }
            let tagged = DocumentTag.isUsed(initiatorVersions: role == .initiator ? hello.versions : peer.versions)
            guard DocumentTag.hello(peer, names: settings, tagged: tagged) else { throw .wrongDocument }
            guard peer.replica != hello.replica else { throw .selfConnection }
            version = common
            if role == .responder {
                hello.document = DocumentTag.field(for: settings, nonce: hello.nonce, tagged: tagged)
                sendHandshake(.hello(hello))
                transcript.insert(body, at: 0)
            } else {
                transcript.append(body)
            }
            let initiator = role == .initiator ? hello : peer
            let responder = role == .initiator ? peer : hello
            let keys = HandshakeKeys(
                secret: settings.secret, initiatorHello: initiator, initiatorBody: transcript[0],
                responderHello: responder, responderBody: transcript[1])
            if role == .initiator { sendHandshake(.auth(proof: keys.initiatorProof)) }
            phase = .awaitingAuth(keys, peer: peer.replica)
            return nil
        case (.awaitingAuth(let keys, let peer), .auth(let proof)):
            let expected = role == .initiator ? keys.responderProof : keys.initiatorProof
            guard ConstantTime.isEqual(proof, expected) else {
                if role == .initiator { rejectedResponderCipher = FrameCipher(key: keys.initiatorToResponder) }
                throw .authenticationFailed
            }
            if role == .responder { sendHandshake(.auth(proof: keys.responderProof)) }
            let (outgoing, incoming) =
                role == .initiator
                ? (keys.initiatorToResponder, keys.responderToInitiator)
                : (keys.responderToInitiator, keys.initiatorToResponder)
            phase = .established(sending: FrameCipher(key: outgoing), receiving: FrameCipher(key: incoming))
            framing.maximumFrameByteCount = SyncProtocol.maximumFrameByteCount
            return .authenticated(peer)
        default:
            throw .unexpectedMessage(type: message.type.rawValue, phase: "in the handshake")
        }
    }
}
