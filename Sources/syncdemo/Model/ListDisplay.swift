import ListSync

/// How replicas' lists are printed: side by side in columns on a terminal, fitted to its width, one
/// plain line per replica otherwise (`name: row | row | …`, pending rows prefixed with `…`), so scripts
/// can parse them.
enum ListDisplay {
    /// One replica's list: its name and its rows' texts (pending placeholders marked).
    struct Column {
        /// The replica's name.
        var name: String
        /// The rows, in order.
        var rows: [(text: String, isPending: Bool)]

        /// A column called `name` showing `rows`.
        init(name: String, rows: [(text: String, isPending: Bool)]) {
            self.name = name
            self.rows = rows
        }

        /// The column of `list` called `name`; checked rows read `✓ TEXT`, and rows others have
        /// selected or drag are followed by their names (`Paris ◂ kitchen`, from ``PresenceCommand/marks(_:)``).
        init(name: String, list: ReplicatedList<Entry>, marks: [RowID: [String]] = [:]) {
            self.init(
                name: name,
                rows: list.map { row in
                    let names = row.id.rowID.flatMap { marks[$0] } ?? []
                    return (
                        row.value.description + (names.isEmpty ? "" : " ◂ " + names.joined(separator: ", ")),
                        row.isPending
                    )
                })
        }
    }

    /// Blanks between two columns.
    static let gap = 3
    /// The narrowest a column gets before the columns are shown one under another instead.
    static let narrowestColumn = 12

    /// The lists as text for standard output.
    static func render(_ columns: [Column]) -> String {
        Console.outputIsTerminal ? sideBySide(columns, width: Console.outputWidth) : plain(columns)
    }

    /// `name: a | b | …c` per replica; control characters in texts escaped.
    static func plain(_ columns: [Column]) -> String {
        columns.map { column in
            "\(column.name): "
                + column.rows.map { ($0.isPending ? "…" : "") + $0.text.escapingControlCharacters }
                .joined(separator: " | ")
        }.joined(separator: "\n")
    }

    /// Columns of numbered rows under bold names, pending rows dimmed and marked with `…`, in at most
    /// `width` columns: each column as wide as its widest row when they all fit; else the widest share
    /// what is left and their rows wrap at blanks under the text; when even that leaves a column
    /// narrower than ``narrowestColumn``, the lists are shown one under another.
    /// - Complexity: O(n) for n characters in all rows.
    static func sideBySide(_ columns: [Column], width: Int) -> String {
        let natural = columns.map { column in
            column.rows.enumerated().reduce(column.name.terminalWidth) { widest, row in
                max(widest, cellText(row.offset, row.element).terminalWidth)
            }
        }
        guard let widths = fit(natural, in: width) else {
            return columns.map { sideBySide([$0], width: width) }.joined(separator: "\n\n")
        }
        let blocks = zip(columns, widths).map { column, width in lines(of: column, width: width) }
        var output: [String] = []
        for index in 0..<(blocks.map(\.count).max() ?? 0) {
            var line = ""
            for (column, (block, width)) in zip(blocks, widths).enumerated() {
                let (text, style) = index < block.count ? block[index] : ("", nil)
                let padding = column == blocks.count - 1 ? 0 : width + gap - text.terminalWidth
                line += (style.map { $0(text) } ?? text) + String(repeating: " ", count: max(0, padding))
            }
            output.append(String(line.reversed().drop { $0 == " " }.reversed()))
        }
        return output.joined(separator: "\n")
    }

    /// The widths the columns get within `width`, or nil when one would be cut below ``narrowestColumn``:
    /// each its natural width if they all fit, else the narrow ones keep theirs and the rest share the room.
    static func fit(_ natural: [Int], in width: Int) -> [Int]? {
        var room = width - gap * max(0, natural.count - 1)
        guard natural.reduce(0, +) > room else { return natural }
        var widths = natural
        var left = natural.count
        for index in natural.indices.sorted(by: { natural[$0] < natural[$1] }) {
            widths[index] = min(natural[index], room / left)
            room -= widths[index]
            left -= 1
        }
        let wideEnough = zip(widths, natural).allSatisfy { $0 == $1 || $0 >= narrowestColumn }
        return wideEnough || natural.count == 1 ? widths : nil
    }

    /// The lines of one column `width` wide: its name, then each row wrapped under its text.
    private static func lines(of column: Column, width: Int) -> [(text: String, style: Style?)] {
        var lines = TextWrap.wrap(column.name.escapingControlCharacters, width: width).map {
            (text: $0, style: Style?.some(.bold))
        }
        for (index, row) in column.rows.enumerated() {
            let number = "\(index). "
            let wrapped = TextWrap.wrap(
                cellText(index, row), width: width, indent: String(repeating: " ", count: number.count))
            lines += wrapped.map { (text: $0, style: row.isPending ? .dim : nil) }
        }
        return lines
    }

    /// `3. … Ada (loading…)`: a row's number, a mark when pending, its text with controls escaped.
    private static func cellText(_ index: Int, _ row: (text: String, isPending: Bool)) -> String {
        "\(index). " + (row.isPending ? "… " : "") + row.text.escapingControlCharacters
    }
}
