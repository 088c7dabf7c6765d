import Testing

@testable import syncdemo

/// The prompt's line editor, fed the bytes a terminal sends, with no terminal.
@Suite struct LineEditorTests {
    /// Escape sequences as terminals send them.
    enum Key {
        static let left = "\u{1B}[D"
        static let right = "\u{1B}[C"
        static let up = "\u{1B}[A"
        static let down = "\u{1B}[B"
        static let home = "\u{1B}[H"
        static let end = "\u{1B}[F"
        static let delete = "\u{1B}[3~"
        static let backspace = "\u{7F}"
        static let enter = "\r"
    }

    /// An editor after `input`, and the events it produced.
    func editor(after input: String, _ editor: LineEditor = LineEditor()) -> (LineEditor, [LineEditor.Event]) {
        var editor = editor
        let events = editor.feed(Array(input.utf8))
        return (editor, events)
    }

    /// The line and cursor after `input`.
    func state(after input: String) -> (text: String, cursor: Int) {
        let (editor, _) = editor(after: input)
        return (editor.text, editor.cursor)
    }

    @Test(arguments: [
        // Typing, and moving by a character.
        ("abc", "abc", 3),
        ("abc" + Key.left, "abc", 2),
        ("abc" + Key.left + Key.left + "X", "aXbc", 2),
        ("abc" + Key.left + Key.right, "abc", 3),
        ("abc\u{1B}OD\u{1B}OD", "abc", 1),  // SS3 arrows (application cursor mode)
        ("abc\u{02}\u{02}\u{06}", "abc", 2),  // Ctrl-B, Ctrl-B, Ctrl-F
        // Home and End in every form.
        ("abc" + Key.home + "X", "Xabc", 1),
        ("abc\u{1B}OH", "abc", 0), ("abc\u{1B}[1~", "abc", 0), ("abc\u{1B}[7~", "abc", 0),
        ("abc\u{01}X", "Xabc", 1),  // Ctrl-A
        ("abc" + Key.home + Key.end + "X", "abcX", 4),
        ("abc\u{01}\u{1B}OF", "abc", 3), ("abc\u{01}\u{1B}[4~", "abc", 3), ("abc\u{01}\u{1B}[8~", "abc", 3),
        ("abc\u{01}\u{05}X", "abcX", 4),  // Ctrl-E
        // Erasing.
        ("abc" + Key.backspace, "ab", 2),
        ("abc\u{08}", "ab", 2),  // Ctrl-H
        ("abc" + Key.left + Key.backspace, "ac", 1),
        ("abc" + Key.home + Key.backspace, "abc", 0),
        ("abc" + Key.home + Key.delete, "bc", 0),
        ("abc" + Key.delete, "abc", 3),
        ("abc" + Key.left + "\u{04}", "ab", 2),  // Ctrl-D erases under the cursor on a non-empty line
        ("add Paris Rome\u{17}", "add Paris ", 10),  // Ctrl-W
        ("add Paris Rome  \u{17}", "add Paris ", 10),
        ("add Paris Rome\u{17}\u{17}\u{17}\u{17}", "", 0),
        ("add Paris Rome" + Key.left + Key.left + "\u{17}", "add Paris me", 10),
        ("add Paris\u{15}", "", 0),  // Ctrl-U
        ("add Paris" + Key.left + Key.left + "\u{15}", "is", 0),
        ("add Paris" + Key.home + Key.right + "\u{0B}", "a", 1),  // Ctrl-K
        ("add Paris Rome\u{1B}\u{7F}", "add Paris ", 10),  // Alt-Backspace
        ("add Paris Rome" + Key.home + "\u{1B}d", " Paris Rome", 0),  // Alt-D
        // Moving by a word.
        ("add Paris Rome\u{1B}b", "add Paris Rome", 10), ("add Paris Rome\u{1B}b\u{1B}b", "add Paris Rome", 4),
        ("add Paris Rome" + Key.home + "\u{1B}f", "add Paris Rome", 3),
        ("add Paris Rome\u{1B}[1;5D", "add Paris Rome", 10),
        ("add Paris Rome\u{1B}[1;3D\u{1B}[1;5C", "add Paris Rome", 14),
        // Tab types a blank; other controls and unknown sequences change nothing.
        ("a\tb", "a b", 3),
        ("a\u{00}\u{07}\u{0F}\u{1A}\u{1C}\u{1F}b", "ab", 2),
        ("a\u{1B}[Zb", "ab", 2),  // Shift-Tab
        ("a\u{1B}[15~b", "ab", 2),  // F5
        ("a\u{1B}[200~b\u{1B}[201~", "ab", 2),  // bracketed paste markers
        ("a\u{1B}xb", "ab", 2),  // Alt-X
        ("a\u{1B}\u{1B}[Db", "ba", 1),  // a lone Escape, then Left
        ("a\u{1B}[" + String(repeating: "1", count: 100) + "Cb", "ab", 2),  // an endless sequence
        // UTF-8: characters, not bytes; combining marks and emoji join the character before them.
        ("café" + Key.left + "X", "cafXé", 4),
        ("cafe\u{301}" + Key.left + "X", "cafXé", 4),
        ("東京" + Key.left + Key.backspace, "京", 0),
        ("👩\u{200D}💻x" + Key.left + Key.backspace, "x", 0),
        ("a\u{85}b\u{9B}c", "abc", 3),  // C1 controls (NEL, CSI) as UTF-8
    ])
    func keysEditTheLine(input: String, text: String, cursor: Int) {
        let result = state(after: input)
        #expect(result.text == text, "after \(input.debugDescription)")
        #expect(result.cursor == cursor, "after \(input.debugDescription)")
    }

    @Test func everyByteValueAtEveryPositionLeavesNoControlCharacterInTheLine() {
        // Every byte, alone and after each of ESC, ESC [ and ESC O, typed in the middle of a line: the
        // line never holds a control character and the cursor stays on it.
        for prefix in ["", "\u{1B}", "\u{1B}[", "\u{1B}O", "\u{1B}[1;", "\u{C3}", "\u{E6}\u{9D}"] {
            for byte in UInt8.min...UInt8.max {
                var editor = LineEditor()
                _ = editor.feed(
                    Array("ab".utf8) + Array(Key.left.utf8) + Array(prefix.utf8) + [byte] + Array("cd".utf8))
                #expect(editor.text.firstControlCharacter == nil, "prefix \(prefix.debugDescription), byte \(byte)")
                #expect((0...editor.characters.count).contains(editor.cursor))
            }
        }
    }

    @Test(
        arguments: [
            [0x61, 0xFF, 0x62], [0x61, 0xC3, 0x62], [0x61, 0xE6, 0x9D, 0x62], [0x61, 0x80, 0x62],
            [0x61, 0xC0, 0xAF, 0x62],
            [0x61, 0xED, 0xA0, 0x80, 0x62],  // a UTF-16 surrogate
            [0x61, 0xF4, 0x90, 0x80, 0x80, 0x62],  // above U+10FFFF
        ] as [[UInt8]])
    func malformedUTF8IsRefusedAndTheTextAroundItKept(bytes: [UInt8]) {
        var editor = LineEditor()
        let events = editor.feed(bytes)
        #expect(editor.text == "ab" && editor.cursor == 2)
        #expect(events.contains(.rejected(.notUTF8)))
    }

    @Test func enterAfterABrokenUTF8SequenceStillSubmits() {
        var editor = LineEditor()
        #expect(editor.feed([0x61, 0xC3, 0x0D]) == [.changed, .submitted("a")])
        #expect(editor.feed([0xE6, 0x04]) == [.endOfInput])
    }

    @Test func enterSubmitsTheLineAndStartsAnEmptyOne() {
        let (editor, events) = editor(after: "add Paris" + Key.left + Key.left + Key.enter)
        #expect(events.last == .submitted("add Paris"))
        #expect(editor.text.isEmpty && editor.cursor == 0)
        #expect(editor.history == ["add Paris"])
    }

    @Test func crlfAndLfAreOneEnterEach() {
        let (_, events) = editor(after: "a\r\nb\nc\r\r")
        #expect(
            events.filter { if case .submitted = $0 { true } else { false } } == [
                .submitted("a"), .submitted("b"), .submitted("c"), .submitted(""),
            ])
    }

    @Test func ctrlDOnAnEmptyLineEndsTheInput() {
        #expect(editor(after: "\u{04}").1 == [.endOfInput])
        #expect(editor(after: "ab\u{7F}\u{7F}\u{04}").1.last == .endOfInput)
        #expect(!editor(after: "ab\u{04}").1.contains(.endOfInput))
    }

    @Test func ctrlLClearsTheScreen() {
        #expect(editor(after: "ab\u{0C}").1.last == .clearScreen)
    }

    @Test func refusedInputSaysWhy() {
        #expect(editor(after: "\u{07}").1 == [.rejected(.controlCharacter)])
        #expect(editor(after: Key.left).1 == [.rejected(.nothingThere)])
        #expect(editor(after: Key.up).1 == [.rejected(.nothingThere)])
        #expect(
            editor(after: "abcdef", LineEditor(maximumLength: 4)).1.suffix(2) == [
                .rejected(.tooLong), .rejected(.tooLong),
            ])
        #expect(editor(after: "abcdef", LineEditor(maximumLength: 4)).0.text == "abcd")
        #expect(editor(after: "abé", LineEditor(maximumLength: 3)).0.text == "ab")  // é is 2 bytes
    }

    @Test func upAndDownWalkTheHistoryKeepingTheUnsubmittedLine() {
        let typed = "add Paris\radd Rome\rlist\rdraft"
        var (editor, _) = editor(after: typed)
        #expect(editor.history == ["add Paris", "add Rome", "list"])
        _ = editor.feed(Array(Key.up.utf8))
        #expect(editor.text == "list" && editor.cursor == 4)
        _ = editor.feed(Array((Key.up + Key.up).utf8))
        #expect(editor.text == "add Paris")
        #expect(editor.feed(Array(Key.up.utf8)) == [.rejected(.nothingThere)])
        _ = editor.feed(Array("\u{10}\u{0E}".utf8))  // Ctrl-P, Ctrl-N
        #expect(editor.text == "add Rome")
        _ = editor.feed(Array((Key.down + Key.down).utf8))
        #expect(editor.text == "draft")
        #expect(editor.feed(Array(Key.down.utf8)) == [.rejected(.nothingThere)])
    }

    @Test func anEditedHistoryEntryIsSubmittedAsEditedAndTheEntryKept() {
        var (editor, _) = editor(after: "add Paris\r")
        _ = editor.feed(Array((Key.up + Key.backspace + Key.backspace + "ma" + Key.enter).utf8))
        #expect(editor.history == ["add Paris", "add Parma"])
        _ = editor.feed(Array((Key.up + Key.up).utf8))
        #expect(editor.text == "add Paris")
    }

    @Test func theHistorySkipsBlankLinesAndRepeatsAndKeepsTheNewestUpToItsLimit() {
        var editor = LineEditor(historyLimit: 3)
        _ = editor.feed(Array("a\r\r   \ra\rb\rc\rd\r".utf8))
        #expect(editor.history == ["b", "c", "d"])
    }
}
