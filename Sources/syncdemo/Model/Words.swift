/// A command line typed at a prompt or written in a scenario, split into words.
enum Words {
    /// Splits `line` into words: blanks separate, "double" or 'single' quotes group, a backslash
    /// escapes the next character (a backslash that ends the line is kept as it is: `add abc\` adds
    /// `abc\`); a `#` starting a word begins a comment.
    /// - Throws: ``CommandError`` for an unterminated quote.
    static func split(_ line: String) throws(CommandError) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
                inWord = true
            } else if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                inWord = true
            } else if character == " " || character == "\t" {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else if character == "#" && !inWord {
                break
            } else {
                current.append(character)
                inWord = true
            }
        }
        if let quote { throw CommandError("unterminated \(quote) quote; close it or escape it with \\") }
        if escaped { current.append("\\") }
        if inWord { words.append(current) }
        return words
    }
}

/// A command that cannot be run as written, and why; the list is unchanged.
struct CommandError: Error, Equatable, CustomStringConvertible {
    /// What was wrong and how to write it instead.
    var message: String

    /// An error saying `message`.
    init(_ message: String) { self.message = message }

    /// The message.
    var description: String { message }
}
