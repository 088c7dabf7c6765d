import ListSync

/// A row of the demo's list: a line of text (a place, a to-do, or a contact dropped as a vCard) that can
/// be checked off.
///
/// Stored as a JSON object `{"done":false,"text":"Paris"}`, so its two fields merge one by one: a check
/// on one replica and a concurrent edit of the text on another both survive. As a drag item it reads a
/// vCard first (a contact becomes "Name · phone"), then UTF-8 text, and writes its text.
struct Entry: Hashable, Sendable, Codable, DragRepresentable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The row's text.
    var text: String
    /// Whether the row is checked off (`check`, `uncheck`).
    var done: Bool

    /// An entry showing `text`, checked off when `done`.
    init(_ text: String, done: Bool = false) {
        self.text = text
        self.done = done
    }

    /// An unchecked entry from a literal.
    init(stringLiteral text: String) { self.init(text) }

    /// The text, after `✓ ` when checked off: how lists show the row.
    var description: String { done ? "✓ " + text : text }

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
        done = false
    }

    /// The text as UTF-8.
    func data(for typeIdentifier: TypeIdentifier) throws(RepresentationError) -> [UInt8] {
        try text.data(for: typeIdentifier)
    }

    /// The fields of the stored object.
    private enum CodingKeys: String, CodingKey {
        case text
        case done
    }

    /// Reads `{"done":true,"text":"Paris"}` (`done` may be missing: unchecked), or a bare JSON string, as
    /// earlier versions of syncdemo stored rows (unchecked; the row's next edit writes it as an object).
    init(from decoder: any Decoder) throws {
        guard let container = try? decoder.container(keyedBy: CodingKeys.self) else {
            self.init(try decoder.singleValueContainer().decode(String.self))
            return
        }
        self.init(
            try container.decode(String.self, forKey: .text),
            done: try container.decodeIfPresent(Bool.self, forKey: .done) ?? false)
    }

    /// Writes `{"done":false,"text":"Paris"}`.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(text, forKey: .text)
        try container.encode(done, forKey: .done)
    }
}
