/// A row whose value this replica could not decode as its element type: written by another element
/// type, or by a newer version of the app whose struct has a field this version's requires and lacks.
///
/// Such a row is never lost and never blocks a merge: the replica keeps its value's bytes as they are,
/// stores and relays them unchanged, and keeps the row out of its visible rows (so indexes and change
/// batches stay those of rows it can show). ``ReplicatedList/undecodableRows`` lists them, for an app to
/// say "3 items need a newer version of the app". A replica of a type that reads the value (the same
/// list reopened by a later version of the app, or a peer) shows the row; a later edit with a value
/// this replica reads shows it here too, reported as an insert.
public struct UndecodableRow: Hashable, Sendable {
    /// The row's identity.
    public let id: RowID
    /// The type identifier its value was written with (`public.json`, `public.utf8-plain-text`, ...).
    public let typeIdentifier: String
    /// The value's bytes, as received.
    public let bytes: [UInt8]
    /// Why it did not decode as the list's element type.
    public let reason: String
}

/// A value kept as it was received because it did not decode as the list's element type.
@usableFromInline
struct UndecodableValue: Error, Sendable {
    /// The value as it travels; its bytes are its own, not a slice of the change set it came in.
    @usableFromInline var payload: ChangeSet.Payload
    /// Why it did not decode.
    @usableFromInline var reason: String

    /// Keeps `payload`, copying its bytes out of the buffer they were decoded from.
    @usableFromInline
    init(_ payload: ChangeSet.Payload, reason: String) {
        self.payload = ChangeSet.Payload(typeIdentifier: payload.typeIdentifier, bytes: Array(payload.bytes)[...])
        self.reason = reason
    }

    /// `payload`, whose type identifier is not that of `Element`.
    @usableFromInline
    static func ofAnotherType<Element: Codable>(_ payload: ChangeSet.Payload, expected: Element.Type) -> Self {
        let expectedType = ValueCoding.typeIdentifier(of: Element.self)
        return UndecodableValue(payload, reason: "type \(payload.typeIdentifier), expected \(expectedType)")
    }
}

/// Values as decoded from a change set or snapshot: one per update, and the ones that did not decode.
@usableFromInline
struct DecodedValues<Element> {
    /// For each update, its value decoded, or nil when it carries none or it did not decode.
    @usableFromInline var values: [Element?] = []
    /// The values that did not decode, by update offset.
    @usableFromInline var undecodable: [Int: UndecodableValue] = [:]

    @usableFromInline init() {}
}

extension ValueCoding {
    /// The value of `payload` as `Element`, or why it is not one.
    @inlinable
    static func decode<Element: Codable>(_ payload: ChangeSet.Payload, as type: Element.Type) -> Result<
        Element, UndecodableValue
    > {
        guard payload.typeIdentifier == typeIdentifier(of: Element.self) else {
            return .failure(.ofAnotherType(payload, expected: Element.self))
        }
        do {
            return .success(try decode(payload.bytes, as: Element.self))
        } catch {
            return .failure(UndecodableValue(payload, reason: String(describing: error)))
        }
    }
}

extension ReplicatedList {
    /// The rows whose values this replica could not decode as `Element`, in list order; they are not
    /// among the visible rows. See ``UndecodableRow``.
    /// - Complexity: O(k log k) for k such rows.
    public var undecodableRows: [UndecodableRow] {
        undecodable.keys.filter { core.rows.positionStamp(of: $0).isSet }
            .sorted { core.rows.bound(of: $0) < core.rows.bound(of: $1) }
            .map { slot in
                let value = undecodable[slot]!
                return UndecodableRow(
                    id: core.rows.id(of: slot), typeIdentifier: value.payload.typeIdentifier,
                    bytes: Array(value.payload.bytes), reason: value.reason)
            }
    }
}
