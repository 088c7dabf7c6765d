import Foundation

/// How elements become row values (a type identifier and bytes) and back.
///
/// Strings travel as UTF-8 (`public.utf8-plain-text`); `Int` and `Int64` as a zigzag LEB128 varint
/// (`org.listsync.varint`); every other `Codable` type as JSON with sorted keys (`public.json`), so
/// equal values always encode to equal bytes.
@usableFromInline
enum ValueCoding {
    @usableFromInline static let plainText = "public.utf8-plain-text"
    @usableFromInline static let varint = "org.listsync.varint"
    @usableFromInline static let json = "public.json"

    /// The type identifier of `type`'s values.
    @inlinable
    static func typeIdentifier<Element: Codable>(of type: Element.Type) -> String {
        if type == String.self { return plainText }
        if type == Int.self || type == Int64.self { return varint }
        return json
    }

    /// Whether `type`'s values are JSON (``typeIdentifier(of:)`` is ``json``), decided by metatype
    /// comparisons that a specialised caller folds, with no string compared.
    @inlinable
    static func isJSON<Element: Codable>(_ type: Element.Type) -> Bool {
        type != String.self && type != Int.self && type != Int64.self
    }

    /// Why bytes are not a value of the expected kind.
    @usableFromInline
    struct MalformedValue: Error, CustomStringConvertible {
        @usableFromInline let description: String

        @usableFromInline
        init(description: String) { self.description = description }
    }

    /// The bytes of `value`.
    ///
    /// - Precondition: `value`'s `Codable` conformance encodes without throwing; the stored element must
    ///   be representable, as for any `Codable` persistence.
    static func encode<Element: Codable>(_ value: Element) -> [UInt8] {
        if let string = value as? String { return Array(string.utf8) }
        if let integer = value as? Int { return encodeVarint(Int64(integer)) }
        if let integer = value as? Int64 { return encodeVarint(integer) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        do {
            return Array(try encoder.encode(value))
        } catch {
            preconditionFailure("\(Element.self) failed to encode: \(error)")
        }
    }

    /// The value in `bytes`.
    ///
    /// Strings and integers take no dynamic cast, also where the caller is not specialised (a store
    /// generic over its element, in another module): `unsafeBitCast` is safe because the metatype was
    /// just compared, and unlike `as? Element` it instantiates no metadata per value.
    @inlinable
    static func decode<Element: Codable>(_ bytes: ArraySlice<UInt8>, as type: Element.Type) throws -> Element {
        if type == String.self { return unsafeBitCast(String(decoding: bytes, as: UTF8.self), to: Element.self) }
        if type == Int.self { return unsafeBitCast(Int(try decodeVarint(bytes)), to: Element.self) }
        if type == Int64.self { return unsafeBitCast(try decodeVarint(bytes), to: Element.self) }
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return try decoder.decode(Element.self, from: Data(bytes))
    }

    /// Plain-text values in bulk: for each slot in `0..<slotCount`, the string in the range of `bytes`
    /// that `values` gives at its slot's offset in `slots`, or nil for a slot without one. Ill-formed
    /// UTF-8 is repaired, as ``decode(_:as:)`` does.
    /// - Parameter capacity: the room to reserve, for the edits that follow a load.
    @usableFromInline
    static func decodeText(
        _ values: [EncodedUpdates.Value], slots: [Int32], in bytes: [UInt8], slotCount: Int, capacity: Int
    ) -> ContiguousArray<String?> {
        var strings = LargeTables.array(repeating: String?.none, count: slotCount, capacity: capacity)
        bytes.withUnsafeBufferPointer { buffer in
            for (slot, value) in zip(slots, values) {
                let utf8 = UnsafeBufferPointer(rebasing: buffer[value.bytes])
                if utf8.count == 1 && utf8[0] < 0x80 {
                    // One ASCII character, as a row per character of text holds: taken from a table.
                    strings[Int(slot)] = asciiCharacters[Int(utf8[0])]
                    continue
                }
                // Copied into a string of its size, which validates (and repairs) it: about a fifth faster
                // for short strings than `String(decoding:as:)`.
                strings[Int(slot)] = String(unsafeUninitializedCapacity: utf8.count) { $0.initialize(from: utf8).1 }
            }
        }
        return strings
    }

    /// The strings of one ASCII character, by code.
    private static let asciiCharacters = (0..<128).map { String(UnicodeScalar(UInt8($0))) }

    private static func encodeVarint(_ value: Int64) -> [UInt8] {
        var writer = BinaryWriter()
        writer.writeVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
        return writer.bytes
    }

    @usableFromInline
    static func decodeVarint(_ bytes: ArraySlice<UInt8>) throws -> Int64 {
        var raw: UInt64 = 0
        var shift: UInt64 = 0
        for (offset, byte) in bytes.enumerated() {
            guard shift < 63 || byte <= 1 else { break }
            raw |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 {
                guard offset == bytes.count - 1 else { break }
                return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
            }
            shift += 7
        }
        throw MalformedValue(description: "\(bytes.count) bytes are not one varint integer")
    }
}
