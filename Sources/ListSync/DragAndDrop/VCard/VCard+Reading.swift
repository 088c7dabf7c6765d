extension VCard {
    /// Reads one vCard 3.0 or 4.0 from `bytes` (UTF-8; CRLF or LF; folded lines; escapes).
    /// - Throws: ``RepresentationError/malformedData(_:reason:)`` saying what is wrong and on which line.
    public init(vCard bytes: [UInt8]) throws(RepresentationError) {
        func malformed(_ reason: String) -> RepresentationError { .malformedData(.vCard, reason: reason) }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw malformed("invalid UTF-8") }
        var formattedName: String?
        var name: Name?
        var phones: [String] = []
        var emails: [String] = []
        var state = 0  // 0: before BEGIN, 1: inside, 2: after END
        for (number, line) in Self.unfoldedLines(text) where !line.isEmpty {
            guard state != 2 else { throw malformed("line \(number): content after END:VCARD") }
            guard let colon = Self.valueSeparator(in: line) else { throw malformed("line \(number): no ':'") }
            let head = line[..<colon].split(separator: ";", omittingEmptySubsequences: false)
            let property = head[0].split(separator: ".").last.map { $0.uppercased() } ?? ""
            let value = line[line.index(after: colon)...]
            if state == 0 {
                guard property == "BEGIN", value.uppercased() == "VCARD" else {
                    throw malformed("line \(number): expected BEGIN:VCARD")
                }
                state = 1
                continue
            }
            switch property {
            case "VERSION":
                guard value == "3.0" || value == "4.0" else {
                    throw malformed("line \(number): unsupported version \(value)")
                }
            case "FN": formattedName = Self.unescaped(value)
            case "N":
                let parts = Self.components(of: value)
                func part(_ index: Int) -> String { index < parts.count ? parts[index] : "" }
                name = Name(family: part(0), given: part(1), additional: part(2), prefixes: part(3), suffixes: part(4))
            case "TEL":
                let number = Self.unescaped(value)
                phones.append(number.lowercased().hasPrefix("tel:") ? String(number.dropFirst(4)) : number)
            case "EMAIL": emails.append(Self.unescaped(value))
            case "END":
                guard value.uppercased() == "VCARD" else { throw malformed("line \(number): expected END:VCARD") }
                state = 2
            default: continue
            }
        }
        guard state == 2 else { throw malformed(state == 0 ? "no BEGIN:VCARD" : "no END:VCARD") }
        guard let formattedName else { throw malformed("no FN property") }
        self.init(formattedName: formattedName, name: name, phones: phones, emails: emails)
    }

    /// Reads UTF-8 plain text: the first line is the name; lines with an `@` are emails; lines of digits,
    /// spaces and `+-().` are phone numbers.
    /// - Throws: ``RepresentationError/malformedData(_:reason:)`` for invalid UTF-8 or empty text.
    public init(plainText bytes: [UInt8]) throws(RepresentationError) {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .malformedData(.utf8PlainText, reason: "invalid UTF-8")
        }
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
        guard !lines.isEmpty else { throw .malformedData(.utf8PlainText, reason: "empty text") }
        self.init(formattedName: "")
        for line in lines {
            if line.contains("@") {
                emails.append(line)
            } else if line.allSatisfy({ $0.isNumber || " +-().".contains($0) }) && line.contains(where: \.isNumber) {
                phones.append(line)
            } else if formattedName.isEmpty {
                formattedName = line
            }
        }
    }

    /// The logical lines of `text` with their first physical line numbers: CRLF or LF ends, and a line
    /// starting with a space or tab continuing the previous one (RFC 6350 section 3.2).
    static func unfoldedLines(_ text: String) -> [(Int, String)] {
        var lines: [(Int, String)] = []
        // "\r\n" is one Character, so split on both forms of line end.
        let physicalLines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for (offset, raw) in physicalLines.enumerated() {
            let physical = raw.hasSuffix("\r") ? raw.dropLast() : raw
            if let first = physical.first, first == " " || first == "\t", !lines.isEmpty {
                lines[lines.count - 1].1 += physical.dropFirst()
            } else {
                lines.append((offset + 1, String(physical)))
            }
        }
        return lines
    }

    /// The index of the ':' ending the property name and parameters (not one inside a quoted parameter).
    static func valueSeparator(in line: String) -> String.Index? {
        var quoted = false
        for index in line.indices {
            if line[index] == "\"" { quoted.toggle() } else if line[index] == ":" && !quoted { return index }
        }
        return nil
    }

    /// `value` with the escapes `\\n`, `\\N`, `\\,`, `\\;` and `\\\\` resolved.
    static func unescaped(_ value: Substring) -> String {
        var result = ""
        var escaping = false
        for character in value {
            if escaping {
                result.append(character == "n" || character == "N" ? "\n" : character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// The components of a structured value, split at unescaped ';', each unescaped.
    static func components(of value: Substring) -> [String] {
        var parts: [String] = []
        var start = value.startIndex
        var escaping = false
        for index in value.indices {
            if escaping {
                escaping = false
            } else if value[index] == "\\" {
                escaping = true
            } else if value[index] == ";" {
                parts.append(unescaped(value[start..<index]))
                start = value.index(after: index)
            }
        }
        parts.append(unescaped(value[start...]))
        return parts
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
