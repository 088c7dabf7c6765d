/// Control characters (Unicode category Cc: the C0 controls U+0000 to U+001F, DEL U+007F and the C1
/// controls U+0080 to U+009F), which start terminal escape sequences and so never go into a row's text
/// and are never echoed raw.
extension StringProtocol {
    /// The first control character and its 0-based offset in characters, or nil when there is none.
    /// - Complexity: O(n) for n characters.
    var firstControlCharacter: (scalar: Unicode.Scalar, offset: Int)? {
        for (offset, character) in zip(0..., self) {
            if let scalar = character.unicodeScalars.first(where: \.isControl) { return (scalar, offset) }
        }
        return nil
    }

    /// The text with each control character written as `\u{1B}`, so printing it cannot move the cursor,
    /// clear the screen or change colours: `Oslo\u{1B}[D`.
    /// - Complexity: O(n) for n scalars.
    var escapingControlCharacters: String {
        guard firstControlCharacter != nil else { return String(self) }
        var escaped = ""
        for scalar in unicodeScalars {
            if scalar.isControl { escaped += scalar.escapedCode } else { escaped.unicodeScalars.append(scalar) }
        }
        return escaped
    }
}

extension Unicode.Scalar {
    /// Whether this is a control character (general category Cc).
    var isControl: Bool { properties.generalCategory == .control }

    /// `\u{1B}`: the scalar's code in hexadecimal, upper case, at least two digits.
    var escapedCode: String {
        let hex = String(value, radix: 16, uppercase: true)
        return "\\u{" + String(repeating: "0", count: max(0, 2 - hex.count)) + hex + "}"
    }

    /// `U+001B`, for messages.
    var codePoint: String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
