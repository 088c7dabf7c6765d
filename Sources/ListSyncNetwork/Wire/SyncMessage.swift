import ListSync

/// One message of the sync protocol, as carried in one frame body (Protocol.md section 2.3).
enum SyncMessage: Hashable, Sendable {
    /// Opens the handshake.
    case hello(Hello)
    /// Proves knowledge of the secret: HMAC-SHA256 over the handshake transcript.
    case auth(proof: [UInt8])
    /// The sender closes the connection, with an error code and a reason.
    case close(code: UInt8, reason: String)
    /// The sender's version vector, sent once after the handshake.
    case vector(VersionVector)
    /// An encoded change set.
    case changes([UInt8])
    /// The sender's version vector after merging changes.
    case ack(VersionVector)
    /// Keeps an idle connection alive.
    case heartbeat
    /// The next bytes of a change set too big for one frame: the PIECEs and the CHANGES after them,
    /// concatenated, are the change set.
    case piece([UInt8])
    /// The latest presence updates the sender knows of some peers, itself included (version 6 on).
    case presence([PresenceTable.Update])

    /// The longest CLOSE reason, in bytes.
    static let maximumReasonByteCount = 255

    /// The type byte.
    var type: MessageType {
        switch self {
        case .hello: .hello
        case .auth: .auth
        case .close: .close
        case .vector: .vector
        case .changes: .changes
        case .ack: .ack
        case .heartbeat: .heartbeat
        case .piece: .piece
        case .presence: .presence
        }
    }

    /// The frame body: type byte, then payload.
    func encoded() -> [UInt8] {
        var writer = BinaryWriter()
        writer.write(type.rawValue)
        switch self {
        case .hello(let hello):
            writer.write(contentsOf: Hello.magic)
            writer.writeVarint(hello.versions.upperBound)
            writer.writeVarint(hello.versions.lowerBound)
            writer.writeFixed64(hello.replica.rawValue)
            writer.write(contentsOf: hello.nonce)
            writer.writeLengthPrefixed(hello.document)
        case .auth(let proof):
            writer.write(contentsOf: proof)
        case .close(let code, let reason):
            writer.writeVarint(UInt64(code))
            writer.writeLengthPrefixed(Array(reason.utf8.prefix(Self.maximumReasonByteCount)))
        case .vector(let vector), .ack(let vector):
            vector.write(to: &writer)
        case .changes(let bytes), .piece(let bytes):
            writer.write(contentsOf: bytes)
        case .heartbeat:
            break
        case .presence(let updates):
            writer.write(contentsOf: PresenceTable.Update.encode(updates))
        }
        return writer.bytes
    }

    /// Parses a frame body.
    init(decoding body: ArraySlice<UInt8>) throws(SyncError) {
        guard let first = body.first else { throw .malformedMessage(type: 0, offset: 0, reason: "empty body") }
        guard let type = MessageType(rawValue: first) else {
            throw .unexpectedMessage(type: first, phase: "decoding (unknown type)")
        }
        var reader = WireReader(type: first, payload: body.dropFirst())
        switch type {
        case .hello:
            guard Array(try reader.read(count: Hello.magic.count)) == Hello.magic else { throw .badMagic }
            let highest = try reader.readVarint()
            guard highest >= SyncProtocol.firstVersionWithRange else {
                throw .unsupportedVersion(offered: highest...highest, supported: SyncProtocol.versions)
            }
            let lowestOffset = reader.offset
            let lowest = try reader.readVarint()
            guard lowest <= highest else {
                throw reader.malformed("lowest version \(lowest) above highest \(highest)", at: lowestOffset)
            }
            guard SyncProtocol.highestCommonVersion(with: lowest...highest) != nil else {
                throw .unsupportedVersion(offered: lowest...highest, supported: SyncProtocol.versions)
            }
            let replicaOffset = reader.offset
            let replica = ReplicaID(try reader.readUInt64())
            guard replica.rawValue != 0 else { throw reader.malformed("replica ID 0 is reserved", at: replicaOffset) }
            let nonce = Array(try reader.read(count: Hello.nonceByteCount))
            let document = try reader.readLengthPrefixed(limit: Hello.maximumDocumentByteCount)
            self = .hello(Hello(versions: lowest...highest, replica: replica, nonce: nonce, document: document))
        case .auth:
            self = .auth(proof: Array(try reader.read(count: HandshakeKeys.proofByteCount)))
        case .close:
            let code = try reader.readVarint()
            guard code <= UInt64(UInt8.max) else { throw reader.malformed("error code \(code) above 255") }
            let reason = try reader.readLengthPrefixed(limit: Self.maximumReasonByteCount)
            self = .close(code: UInt8(code), reason: String(decoding: reason, as: UTF8.self))
        case .vector:
            self = .vector(try VersionVector(reading: &reader))
        case .ack:
            self = .ack(try VersionVector(reading: &reader))
        case .changes:
            self = .changes(Array(reader.remaining))
            return
        case .piece:
            guard !reader.remaining.isEmpty else { throw reader.malformed("an empty piece") }
            self = .piece(Array(reader.remaining))
            return
        case .heartbeat:
            self = .heartbeat
        case .presence:
            do {
                self = .presence(try PresenceTable.Update.decode(Array(reader.remaining)))
            } catch {
                throw reader.malformed("presence: \(error)", at: reader.offset + (error.offset ?? 0))
            }
            return
        }
        try reader.expectEnd()
    }
}
