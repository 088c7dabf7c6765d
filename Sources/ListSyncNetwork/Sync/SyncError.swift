/// Why a sync connection was closed; each case says what went wrong and where, and has a wire error code.
public enum SyncError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A frame body did not parse: message type, byte offset in the body, and what was wrong.
    case malformedMessage(type: UInt8, offset: Int, reason: String)
    /// A frame announced a body longer than the limit (or an empty one).
    case frameTooLarge(length: Int, limit: Int)
    /// A frame carried a message type this version does not know, or one not allowed at this point.
    case unexpectedMessage(type: UInt8, phase: String)
    /// The peer's HELLO did not start with the protocol magic: it does not speak this protocol.
    case badMagic
    /// The protocol versions a HELLO offered and those this implementation speaks have none in common.
    case unsupportedVersion(offered: ClosedRange<UInt64>, supported: ClosedRange<UInt64>)
    /// The peer asked for a document this side does not hold; from protocol version 7, where HELLO names the
    /// document by a tag computed with the secret, also a peer with another secret.
    case wrongDocument
    /// The peer's handshake proof did not verify: it does not hold the document's secret, or replayed a session.
    case authenticationFailed
    /// An encrypted frame's tag did not verify: the frame with this counter was altered, reordered or replayed.
    case decryptionFailed(frame: UInt64)
    /// The peer is this replica itself.
    case selfConnection
    /// A change set from the peer was rejected by the replica; nothing of it was applied.
    case invalidChanges(reason: String)
    /// The handshake did not complete in time (slow or silent peer).
    case handshakeTimeout
    /// No complete frame arrived for too long (dead peer, or one sending a byte at a time).
    case idleTimeout
    /// Queued bytes made no progress for too long: the peer stopped reading.
    case writeTimeout
    /// The connection ended in the middle of a frame.
    case truncatedFrame(received: Int, expected: Int)
    /// The peer closed the connection.
    case connectionClosed
    /// The peer sent CLOSE with this code and reason.
    case closedByPeer(code: UInt8, reason: String)
    /// A system call failed.
    case socket(SocketError)
    /// This peer is shutting down or dropped the connection on purpose.
    case shuttingDown
    /// A change set from the peer, put together from its pieces, grew past this side's limit
    /// (``SyncSettings/maximumChangeSetByteCount``); nothing of it was applied.
    case changeSetTooLarge(length: Int, limit: Int)
    /// This side could not keep a valid change set from the peer (its store could not log it: a full
    /// disk, an I/O error); nothing of it was applied, and the peer sends it again after reconnecting.
    case storageFailed(reason: String)

    /// Whether the peer is told of this error with a CLOSE: not when it went away or the link broke.
    var isToldToPeer: Bool {
        switch self {
        case .connectionClosed, .closedByPeer, .socket, .truncatedFrame: false
        default: true
        }
    }

    /// The error code sent in CLOSE and written in log lines (Protocol.md section 2.8).
    public var code: UInt8 {
        switch self {
        case .malformedMessage: 1
        case .frameTooLarge: 2
        case .unexpectedMessage: 3
        case .badMagic: 4
        case .unsupportedVersion: 5
        case .wrongDocument: 6
        case .authenticationFailed: 7
        case .decryptionFailed: 8
        case .selfConnection: 9
        case .invalidChanges: 10
        case .handshakeTimeout: 11
        case .idleTimeout: 12
        case .writeTimeout: 13
        case .truncatedFrame: 14
        case .connectionClosed: 15
        case .closedByPeer: 16
        case .socket: 17
        case .shuttingDown: 18
        case .changeSetTooLarge: 19
        case .storageFailed: 20
        }
    }

    /// `name: detail`, as written in log lines.
    public var description: String {
        switch self {
        case .malformedMessage(let type, let offset, let reason):
            "malformedMessage: type 0x\(String(type, radix: 16)) at byte \(offset): \(reason)"
        case .frameTooLarge(let length, let limit): "frameTooLarge: \(length) bytes, limit \(limit)"
        case .unexpectedMessage(let type, let phase):
            "unexpectedMessage: type 0x\(String(type, radix: 16)) while \(phase)"
        case .badMagic: "badMagic: not a ListSync peer"
        case .unsupportedVersion(let offered, let supported):
            "unsupportedVersion: protocol versions \(offered.lowerBound)...\(offered.upperBound) offered, "
                + "\(supported.lowerBound)...\(supported.upperBound) supported"
        case .wrongDocument: "wrongDocument: the peer asked for a document not held here, or with another secret"
        case .authenticationFailed: "authenticationFailed: the handshake proof does not match the shared secret"
        case .decryptionFailed(let frame): "decryptionFailed: tag check failed on frame \(frame)"
        case .selfConnection: "selfConnection: the peer is this replica"
        case .invalidChanges(let reason): "invalidChanges: \(reason)"
        case .handshakeTimeout: "handshakeTimeout: no complete handshake in time"
        case .idleTimeout: "idleTimeout: no complete frame in time"
        case .writeTimeout: "writeTimeout: the peer stopped reading"
        case .truncatedFrame(let received, let expected):
            "truncatedFrame: connection ended after \(received) of \(expected) bytes"
        case .connectionClosed: "connectionClosed: the peer closed the connection"
        case .closedByPeer(let code, let reason): "closedByPeer: code \(code): \(reason)"
        case .socket(let error): "socket: \(error)"
        case .shuttingDown: "shuttingDown"
        case .changeSetTooLarge(let length, let limit):
            "changeSetTooLarge: at least \(length) bytes, limit \(limit)"
        case .storageFailed(let reason): "storageFailed: the change set could not be kept: \(reason)"
        }
    }
}
