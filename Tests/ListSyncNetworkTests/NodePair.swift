import ListSync

@testable import ListSyncNetwork

/// Two nodes of lists of strings on one connection, for handshake and tampering tests.
typealias NodePair = NodeLink<ReplicatedList<String>, ReplicatedList<String>>

/// Two nodes on one connection, pumped by hand: the in-memory transport at its simplest.
struct NodeLink<Initiator: SyncReplica, Responder: SyncReplica> {
    /// The initiator (connection 1) and the responder (connection 2).
    let initiator: SyncNode<Initiator>
    let responder: SyncNode<Responder>
    /// Every chunk handed over: true when from the initiator.
    private(set) var transcript: [(fromInitiator: Bool, bytes: [UInt8])] = []

    /// The initiator's connection.
    static var initiatorConnection: ConnectionID { ConnectionID(1) }
    /// The responder's connection.
    static var responderConnection: ConnectionID { ConnectionID(2) }

    /// Opens the connection with fixed or given nonces.
    init(
        initiator: SyncNode<Initiator>, responder: SyncNode<Responder>,
        nonces: ([UInt8], [UInt8]) = (Array(0..<32), Array(32..<64))
    ) {
        self.initiator = initiator
        self.responder = responder
        initiator.open(Self.initiatorConnection, role: .initiator, nonce: nonces.0)
        responder.open(Self.responderConnection, role: .responder, nonce: nonces.1)
    }

    /// What the initiator has to send.
    mutating func takeFromInitiator() -> [UInt8] {
        let bytes = initiator.output(for: Self.initiatorConnection, limit: .max)
        if !bytes.isEmpty { transcript.append((true, bytes)) }
        return bytes
    }

    /// What the responder has to send.
    mutating func takeFromResponder() -> [UInt8] {
        let bytes = responder.output(for: Self.responderConnection, limit: .max)
        if !bytes.isEmpty { transcript.append((false, bytes)) }
        return bytes
    }

    /// Alternates whole outputs until neither side has anything, or one throws.
    mutating func exchange() throws(SyncError) {
        var quietRounds = 0
        while quietRounds < 2 {
            let fromInitiator = takeFromInitiator()
            try responder.receive(fromInitiator, on: Self.responderConnection)
            let fromResponder = takeFromResponder()
            try initiator.receive(fromResponder, on: Self.initiatorConnection)
            quietRounds = fromInitiator.isEmpty && fromResponder.isEmpty ? quietRounds + 1 : 0
        }
    }
}

extension NodeLink where Initiator == ReplicatedList<String>, Responder == ReplicatedList<String> {
    /// Nodes for replicas 0x0A and 0x0B with the given settings.
    init(initiatorSettings: SyncSettings = .test, responderSettings: SyncSettings = .test) {
        self.init(
            initiator: SyncNode(replica: ReplicatedList(replicaID: ReplicaID(0x0A)), settings: initiatorSettings),
            responder: SyncNode(replica: ReplicatedList(replicaID: ReplicaID(0x0B)), settings: responderSettings))
    }
}

/// Splits a byte stream into whole frames (length prefix included).
func splitFrames(_ bytes: [UInt8]) -> [[UInt8]] {
    var frames: [[UInt8]] = []
    var offset = 0
    while offset + 4 <= bytes.count {
        let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        frames.append(Array(bytes[offset..<min(bytes.count, offset + 4 + length)]))
        offset += 4 + length
    }
    return frames
}
