/// How the prompt and the line being typed are drawn on one terminal row: the bytes that redraw it in
/// place, scrolled sideways when the line is wider than the terminal so the cursor stays in view.
enum PromptLine {
    /// Moves to the start of the row and erases it.
    static let clear = "\r\u{1B}[K"

    /// The text that redraws `prompt` and `characters` on the current row of a terminal `width` columns
    /// wide and puts the cursor after the first `cursor` characters.
    ///
    /// When prompt and line do not fit in `width - 1` columns (the last is kept free so the terminal
    /// never wraps), the line shows a window of its characters around the cursor, the cursor at most
    /// at the window's right edge.
    /// - Complexity: O(n) for a line of n characters.
    static func render(prompt: String, characters: [Character], cursor: Int, width: Int) -> String {
        let promptWidth = prompt.terminalWidth
        let room = max(1, width - 1 - promptWidth)
        var start = 0
        var before = characters[..<cursor].terminalWidth
        while before >= room && start < cursor {
            before -= characters[start].terminalWidth
            start += 1
        }
        var end = cursor
        var used = before
        while end < characters.count && used + characters[end].terminalWidth <= room {
            used += characters[end].terminalWidth
            end += 1
        }
        let column = promptWidth + before
        return clear + prompt + String(characters[start..<end]) + (column > 0 ? "\r\u{1B}[\(column)C" : "\r")
    }
}
