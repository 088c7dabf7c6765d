import Testing

@testable import syncdemo

/// The lists side by side on a terminal, fitted to its width, and the wrapping of narrative text.
@Suite struct ListDisplayTests {
    /// The demo's final lists: three replicas with the same eight rows, two of them 32 characters long.
    let finalTable = ["phone", "laptop", "tablet"].map { name in
        ListDisplay.Column(
            name: name,
            rows: [
                "Lisbon", "Paris", "Ada Lovelace · +44 20 7946 0000", "Alan Turing · +44 20 7946 0000", "Roma",
                "Tokyo", "Quito", "Oslo",
            ].map { (text: $0, isPending: false) })
    }

    /// Every word of `text`, in order, with the row numbers.
    func words(_ text: String) -> [Substring] { text.split(whereSeparator: { $0 == " " || $0 == "\n" }) }

    @Test(arguments: [20, 40, 60, 80, 111, 200])
    func theFinalTableFitsTheWidthWithoutBreakingAWord(width: Int) {
        let table = ListDisplay.sideBySide(finalTable, width: width)
        let lines = table.split(separator: "\n")
        for line in lines { #expect(line.count <= width, "width \(width): \(line.count) columns: \(line)") }
        // Every word of every row appears whole, in each replica's block or column.
        for word in ["Lovelace", "+44", "7946", "0000", "Turing", "Quito", "Oslo"] {
            #expect(
                words(table).filter { $0 == word }.count == 3
                    * (word == "+44" || word == "7946" || word == "0000" ? 2 : 1),
                "width \(width): \(word)\n\(table)")
        }
    }

    @Test func atEightyColumnsTheThreeListsStaySideBySide() {
        let lines = ListDisplay.sideBySide(finalTable, width: 80).split(separator: "\n")
        #expect(lines[0].split(separator: " ") == ["phone", "laptop", "tablet"])
        #expect(lines.count > 9)  // long rows wrapped inside their columns
        #expect(lines.contains { $0.hasPrefix("2. Ada Lovelace ·") })
    }

    @Test func wideEnoughColumnsKeepTheirNaturalWidth() {
        let lines = ListDisplay.sideBySide(finalTable, width: 111).split(separator: "\n")
        #expect(lines.count == 9)
        #expect(
            lines[3]
                == "2. Ada Lovelace · +44 20 7946 0000   2. Ada Lovelace · +44 20 7946 0000   2. Ada Lovelace · +44 20 7946 0000"
        )
    }

    @Test func tooNarrowForColumnsTheListsGoOneUnderAnother() {
        let table = ListDisplay.sideBySide(finalTable, width: 30)
        let lines = table.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.filter { ["phone", "laptop", "tablet"].contains($0) }.count == 3)
        for line in lines { #expect(line.count <= 30) }
    }

    @Test func fitKeepsNarrowColumnsAndSharesTheRestAmongTheWide() {
        #expect(ListDisplay.fit([10, 20, 30], in: 80) == [10, 20, 30])
        #expect(ListDisplay.fit([10, 40, 40], in: 80) == [10, 32, 32])
        #expect(ListDisplay.fit([40, 40, 40], in: 40) == nil)
        #expect(ListDisplay.fit([200], in: 40) == [40])
    }

    @Test func controlCharactersInRowsArriveEscaped() {
        let column = ListDisplay.Column(name: "phone", rows: [(text: "Oslo\u{1B}[2J", isPending: false)])
        #expect(ListDisplay.plain([column]) == "phone: Oslo\\u{1B}[2J")
        #expect(ListDisplay.sideBySide([column], width: 80).firstControlCharacterOutsideLineEnds == nil)
    }

    @Test(arguments: [
        (
            "The phone drops three contacts from another app", 20, "",
            ["The phone drops", "three contacts from", "another app"]
        ),
        ("6. The phone drops three contacts", 14, "   ", ["6. The phone", "   drops three", "   contacts"]),
        (
            "  phone> drop 2 \"Ada Lovelace\"", 18, "         ",
            ["  phone> drop 2", "         \"Ada", "         Lovelace\""]
        ),
        ("abcdefghijklmnop", 6, "", ["abcdef", "ghijkl", "mnop"]),
        ("a  b", 80, "", ["a b"]),
        ("", 10, "", [""]),
        ("東京 東京 東京", 5, "", ["東京", "東京", "東京"]),
    ])
    func wrapBreaksAtBlanks(text: String, width: Int, indent: String, lines: [String]) {
        #expect(TextWrap.wrap(text, width: width, indent: indent) == lines)
    }

    @Test func wrapNeverLoopsOnAWidthTooSmallForACharacter() {
        #expect(TextWrap.wrap("東京", width: 1) == ["東京"])
        #expect(TextWrap.wrap("abc", width: 0) == ["abc"])
    }
}
