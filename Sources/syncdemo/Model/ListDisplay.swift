import ListSync

/// How replicas' lists are printed: side by side in columns on a terminal, one plain line per replica
/// otherwise (`name: row | row | …`, pending rows prefixed with `…`), so scripts can parse them.
enum ListDisplay {
    /// One replica's list: its name and its rows' texts (pending placeholders marked).
    struct Column {
        /// The replica's name.
        var name: String
        /// The rows, in order.
        var rows: [(text: String, isPending: Bool)]

        /// The column of `list` called `name`.
        init(name: String, list: ReplicatedList<Entry>) {
            self.name = name
            rows = list.map { ($0.value.text, $0.isPending) }
        }
    }

    /// The lists as text for standard output.
    static func render(_ columns: [Column]) -> String {
        Console.outputIsTerminal ? sideBySide(columns) : plain(columns)
    }

    /// `name: a | b | …c` per replica.
    static func plain(_ columns: [Column]) -> String {
        columns.map { column in
            "\(column.name): " + column.rows.map { ($0.isPending ? "…" : "") + $0.text }.joined(separator: " | ")
        }.joined(separator: "\n")
    }

    /// Columns of numbered rows under bold names; pending rows dimmed and marked with `…`.
    static func sideBySide(_ columns: [Column]) -> String {
        let cells = columns.map { column in
            column.rows.enumerated().map { index, row in
                (text: "\(index). " + (row.isPending ? "… " : "") + row.text, isPending: row.isPending)
            }
        }
        let widths = zip(columns, cells).map { column, cells in
            max(column.name.count, cells.map(\.text.count).max() ?? 0) + 3
        }
        var lines = [zip(columns, widths).map { pad($0.name, $1, style: .bold) }.joined()]
        for row in 0..<(cells.map(\.count).max() ?? 0) {
            lines.append(
                zip(cells, widths).map { cells, width in
                    guard row < cells.count else { return pad("", width) }
                    let cell = cells[row]
                    return pad(cell.text, width, style: cell.isPending ? .dim : nil)
                }.joined())
        }
        return lines.map { String($0.reversed().drop { $0 == " " }.reversed()) }.joined(separator: "\n")
    }

    /// `text` in `style`, then blanks to `width` characters (outside the style, so lines trim cleanly).
    private static func pad(_ text: String, _ width: Int, style: Style? = nil) -> String {
        (style.map { $0(text) } ?? text) + String(repeating: " ", count: max(0, width - text.count))
    }
}
