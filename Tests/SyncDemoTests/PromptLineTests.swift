import Testing

@testable import syncdemo

/// How the prompt's row is drawn: in place, scrolled sideways to keep the cursor in a narrow terminal.
@Suite struct PromptLineTests {
    /// What the row shows after `PromptLine.render` (the text between the erase and the cursor move)
    /// and the column the cursor is moved to.
    func drawn(_ prompt: String, _ line: String, cursor: Int, width: Int) -> (shown: String, column: Int) {
        let text = PromptLine.render(prompt: prompt, characters: Array(line), cursor: cursor, width: width)
        #expect(text.hasPrefix(PromptLine.clear))
        let body = text.dropFirst(PromptLine.clear.count)
        guard let move = body.range(of: "\r\u{1B}[") else { return (String(body.dropLast()), 0) }
        return (String(body[..<move.lowerBound]), Int(body[move.upperBound...].dropLast()) ?? -1)
    }

    @Test func aShortLineIsDrawnWholeWithTheCursorAfterItsCharacters() {
        #expect(drawn("phone> ", "add Paris", cursor: 9, width: 80) == ("phone> add Paris", 16))
        #expect(drawn("phone> ", "add Paris", cursor: 0, width: 80) == ("phone> add Paris", 7))
        #expect(drawn("", "", cursor: 0, width: 80) == ("", 0))
    }

    @Test func aLineWiderThanTheTerminalScrollsToKeepTheCursorInView() {
        let line = String(repeating: "abcdefghij", count: 5)  // 50 characters
        for width in [10, 20, 31, 80] {
            for cursor in 0...50 {
                let (shown, column) = drawn("p> ", line, cursor: cursor, width: width)
                #expect(shown.count <= width - 1, "width \(width), cursor \(cursor)")
                #expect(column < width, "width \(width), cursor \(cursor)")
                // The characters left of the cursor on screen are the ones before it on the line.
                let before = shown.dropFirst(3).prefix(column - 3)
                #expect(line.prefix(cursor).hasSuffix(before), "width \(width), cursor \(cursor)")
                #expect(cursor == 0 || !before.isEmpty || width - 4 < 1)
            }
        }
    }

    @Test func wideCharactersTakeTwoColumns() {
        #expect(drawn("> ", "東京", cursor: 2, width: 80) == ("> 東京", 6))
        #expect(drawn("> ", "東京", cursor: 1, width: 80).column == 4)
        #expect(Character("東").terminalWidth == 2 && Character("a").terminalWidth == 1)
        #expect(Character("👩‍💻").terminalWidth == 2 && Character("é").terminalWidth == 1)
    }
}
