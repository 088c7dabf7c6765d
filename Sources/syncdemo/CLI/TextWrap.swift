/// Text laid out for a terminal's width: broken at blanks, never inside a word that fits on a line.
enum TextWrap {
    /// `text` in lines of at most `width` columns (``Character/terminalWidth``), broken at blanks; the
    /// first line keeps `text`'s leading blanks, the others start with `indent`. Blanks between words
    /// become one; a word wider than a line is cut, the only case where a word is broken.
    /// - Complexity: O(n) for n characters.
    static func wrap(_ text: String, width: Int, indent: String = "") -> [String] {
        let lead = String(text.prefix { $0 == " " })
        var lines: [String] = []
        var line = lead
        var lineWidth = lead.terminalWidth
        var hasWord = false
        for word in text.split(separator: " ") {
            let wordWidth = word.terminalWidth
            if hasWord && lineWidth + 1 + wordWidth <= width {
                line += " " + word
                lineWidth += 1 + wordWidth
                continue
            }
            if hasWord {
                lines.append(line)
                line = indent
                lineWidth = indent.terminalWidth
            }
            var rest = Substring(word)
            // A word wider than what is left of an empty line is cut to fit.
            while lineWidth + rest.terminalWidth > width, let cut = prefixFitting(rest, width - lineWidth) {
                lines.append(line + rest[..<cut])
                rest = rest[cut...]
                line = indent
                lineWidth = indent.terminalWidth
            }
            line += rest
            lineWidth += rest.terminalWidth
            hasWord = true
        }
        lines.append(line)
        return lines
    }

    /// Where the longest prefix of `word` that fits in `room` columns ends, or nil when not even one
    /// character fits (the word then overflows its line rather than looping).
    private static func prefixFitting(_ word: Substring, _ room: Int) -> Substring.Index? {
        var used = 0
        var end = word.startIndex
        while end < word.endIndex && used + word[end].terminalWidth <= room {
            used += word[end].terminalWidth
            end = word.index(after: end)
        }
        return end == word.startIndex ? nil : end
    }
}
