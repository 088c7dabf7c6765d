import ListSync

/// A row of the demo's list: a line of text (a place, or a contact dropped as a vCard).
///
/// Reads a vCard first (a contact becomes "Name · phone"), then UTF-8 text; encodes as text.
struct Entry: Hashable, Sendable, Codable, DragRepresentable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The row's text.
    var text: String

    /// An entry showing `text`.
    init(_ text: String) { self.text = text }

    /// An entry from a literal.
    init(stringLiteral text: String) { self.text = text }

    /// The text.
    var description: String { text }

    /// vCard, then UTF-8 text.
    static let readableTypeIdentifiers: [TypeIdentifier] = [.vCard, .utf8PlainText]
    /// UTF-8 text.
    static let writableTypeIdentifiers: [TypeIdentifier] = [.utf8PlainText]

    /// Decodes a contact from a vCard, or text from UTF-8.
    init(data: [UInt8], typeIdentifier: TypeIdentifier) throws(RepresentationError) {
        if typeIdentifier == .vCard {
            let card = try VCard(data: data, typeIdentifier: typeIdentifier)
            text = ([card.formattedName] + card.phones.prefix(1)).joined(separator: " · ")
        } else {
            text = try String(data: data, typeIdentifier: typeIdentifier)
        }
    }

    /// The text as UTF-8.
    func data(for typeIdentifier: TypeIdentifier) throws(RepresentationError) -> [UInt8] {
        try text.data(for: typeIdentifier)
    }

    /// Encoded as its bare text.
    init(from decoder: any Decoder) throws { text = try decoder.singleValueContainer().decode(String.self) }

    /// Encoded as its bare text.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
