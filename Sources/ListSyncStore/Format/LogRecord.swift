/// One log record: what happened to the replica, in the order it happened.
///
/// Framing (little-endian, 12-byte header): payload length (u32, at least 1), payload CRC-32C (u32),
/// CRC-32C of the 8 header bytes before it (u32), then the payload: a type byte and the body.
enum LogRecord: Equatable {
    /// A local change: the encoded change set of one `update`.
    case localChange([UInt8])
    /// A change set merged from a peer, as received.
    case mergedChanges([UInt8])
    /// Operation counters of this replica up to this one may be handed out from now on.
    case reservation(UInt64)
    /// The segment before this one holds exactly this many bytes: written when a segment starts, so a
    /// segment that a later one follows can be told complete (cut at a record boundary, it would look
    /// like a shorter log while the later segments' records remain).
    case previousSegment(length: UInt64)

    static let headerSize = 12
    /// The largest payload a record may have (1 GiB); a larger length is damage.
    static let maximumPayload = 1 << 30

    /// Record type bytes.
    private enum Kind: UInt8 {
        case localChange = 1
        case mergedChanges = 2
        case reservation = 3
        case previousSegment = 4
    }

    /// The framed record.
    func encoded() -> [UInt8] {
        var payload: [UInt8]
        switch self {
        case .localChange(let body): payload = [Kind.localChange.rawValue] + body
        case .mergedChanges(let body): payload = [Kind.mergedChanges.rawValue] + body
        case .reservation(let counter):
            payload = [Kind.reservation.rawValue]
            payload.appendLittleEndian(counter)
        case .previousSegment(let length):
            payload = [Kind.previousSegment.rawValue]
            payload.appendLittleEndian(length)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.headerSize + payload.count)
        bytes.appendLittleEndian(UInt32(payload.count))
        bytes.appendLittleEndian(CRC32C.checksum(payload))
        bytes.appendLittleEndian(CRC32C.checksum(bytes))
        bytes.append(contentsOf: payload)
        return bytes
    }

    /// The record in a checked payload, or nil when its type or body is not one this version knows.
    init?(payload: ArraySlice<UInt8>) {
        guard let type = payload.first.flatMap(Kind.init(rawValue:)) else { return nil }
        let body = payload.dropFirst()
        switch type {
        case .localChange: self = .localChange(Array(body))
        case .mergedChanges: self = .mergedChanges(Array(body))
        case .reservation, .previousSegment:
            var reader = LittleEndianReader(Array(body))
            guard let value = reader.read(UInt64.self), reader.remaining == 0 else { return nil }
            self = type == .reservation ? .reservation(value) : .previousSegment(length: value)
        }
    }
}
