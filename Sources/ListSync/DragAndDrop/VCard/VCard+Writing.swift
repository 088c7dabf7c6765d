extension VCard {
    /// The vCard versions the writer produces.
    public enum Version: String, Hashable, Sendable {
        /// RFC 2426.
        case v3 = "3.0"
        /// RFC 6350.
        case v4 = "4.0"
    }

    /// The card as a vCard: CRLF line ends, escaped values, lines folded at 75 bytes.
    public func vCardData(version: Version = .v4) -> [UInt8] {
        var lines = ["BEGIN:VCARD", "VERSION:\(version.rawValue)", "FN:" + Self.escaped(formattedName)]
        let name = name ?? Name(family: formattedName)
        let parts = [name.family, name.given, name.additional, name.prefixes, name.suffixes]
        lines.append("N:" + parts.map(Self.escaped).joined(separator: ";"))
        lines += phones.map { "TEL:" + Self.escaped($0) }
        lines += emails.map { "EMAIL:" + Self.escaped($0) }
        lines.append("END:VCARD")
        return Array(lines.map(Self.folded).joined().utf8)
    }

    /// The card as plain text: the name, then one line per phone number and email address.
    public func plainText() -> String {
        ([formattedName] + phones + emails).filter { !$0.isEmpty }.joined(separator: "\n")
    }

    /// `value` with backslashes, newlines, commas and semicolons escaped.
    static func escaped(_ value: String) -> String {
        var result = ""
        for character in value {
            switch character {
            case "\\": result += "\\\\"
            case "\n", "\r\n": result += "\\n"
            case ",": result += "\\,"
            case ";": result += "\\;"
            default: result.append(character)
            }
        }
        return result
    }

    /// `line` followed by CRLF, folded so no physical line exceeds 75 bytes (never inside a character).
    static func folded(_ line: String) -> String {
        var result = ""
        var width = 0
        for character in line {
            let size = character.utf8.count
            if width + size > 75 {
                result += "\r\n "
                width = 1
            }
            result.append(character)
            width += size
        }
        return result + "\r\n"
    }
}

/// A card travels as a vCard or as plain text, vCard first.
extension VCard: DragRepresentable {
    /// vCard, then UTF-8 plain text.
    public static let readableTypeIdentifiers: [TypeIdentifier] = [.vCard, .utf8PlainText]
    /// vCard, then UTF-8 plain text.
    public static let writableTypeIdentifiers: [TypeIdentifier] = [.vCard, .utf8PlainText]

    /// Reads a vCard or plain text.
    public init(data: [UInt8], typeIdentifier: TypeIdentifier) throws(RepresentationError) {
        switch typeIdentifier {
        case .vCard: try self.init(vCard: data)
        case .utf8PlainText: try self.init(plainText: data)
        default: throw .unsupportedTypeIdentifier(typeIdentifier)
        }
    }

    /// Writes a vCard 4.0 or plain text.
    public func data(for typeIdentifier: TypeIdentifier) throws(RepresentationError) -> [UInt8] {
        switch typeIdentifier {
        case .vCard: vCardData()
        case .utf8PlainText: Array(plainText().utf8)
        default: throw .unsupportedTypeIdentifier(typeIdentifier)
        }
    }
}
