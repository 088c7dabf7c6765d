import Testing

@testable import syncdemo

/// Control characters (C0, DEL, C1) never reach a row's text and are never echoed raw.
@Suite struct ControlCharacterTests {
    @Test(arguments: [
        ("Oslo\u{1B}[D\u{1B}[DX", "U+001B", 5), ("a\tb", "U+0009", 2), ("\u{7F}", "U+007F", 1),
        ("ab\u{85}", "U+0085", 3), ("\u{9B}31m", "U+009B", 1), ("x\u{00}", "U+0000", 2), ("é\r\n", "U+000D", 2),
    ])
    func aRowTextWithAControlCharacterIsRefused(text: String, code: String, position: Int) throws {
        for words in [
            ["add", text], ["insert", "0", text], ["edit", "0", text], ["drop", "0", text],
            ["drop", "0", "Ada", "--phone", text],
        ] {
            #expect {
                try ListCommand.parse(words)
            } throws: { error in
                let message = (error as? CommandError)?.message ?? ""
                return message.contains("holds the control character \(code) at character \(position)")
                    && message.contains("nothing changed") && message.firstControlCharacter == nil
            }
        }
    }

    @Test func textsWithoutControlCharactersAreAccepted() throws {
        #expect(try ListCommand.parse(["add", "São Paulo", "東京", "👩‍💻", "a\u{200D}b"]) != nil)
        #expect(try ListCommand.parse(["move", "Oslo\u{1B}", "top"]) != nil)  // names a row: changes no text
    }

    @Test func messagesEscapeControlCharacters() {
        #expect("Oslo\u{1B}[D".quoted == "'Oslo\\u{1B}[D'")
        #expect("\u{7F}\u{9B}\u{0}".escapingControlCharacters == "\\u{7F}\\u{9B}\\u{00}")
        #expect((String(repeating: "\u{1B}", count: 50)).quoted.firstControlCharacter == nil)
        #expect("plain".escapingControlCharacters == "plain")
    }
}
