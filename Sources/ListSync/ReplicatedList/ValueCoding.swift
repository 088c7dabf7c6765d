import Foundation

/// How elements become row values (a type identifier and bytes) and back.
///
/// Strings travel as UTF-8 (`public.utf8-plain-text`); every other `Codable` type as JSON with
/// sorted keys (`public.json`), so equal values always encode to equal bytes.
enum ValueCoding {
    static let plainText = "public.utf8-plain-text"
    static let json = "public.json"

    /// The type identifier of `type`'s values.
    static func typeIdentifier<Element: Codable>(of type: Element.Type) -> String {
        type == String.self ? plainText : json
    }

    /// The bytes of `value`.
    ///
    /// - Precondition: `value`'s `Codable` conformance encodes without throwing; the stored element must
    ///   be representable, as for any `Codable` persistence.
    static func encode<Element: Codable>(_ value: Element) -> [UInt8] {
        if let string = value as? String { return Array(string.utf8) }
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
    static func decode<Element: Codable>(_ bytes: [UInt8], as type: Element.Type) throws -> Element {
        if type == String.self, let string = String(decoding: bytes, as: UTF8.self) as? Element { return string }
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return try decoder.decode(Element.self, from: Data(bytes))
    }
}
