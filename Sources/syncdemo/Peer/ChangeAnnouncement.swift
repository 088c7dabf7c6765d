import ListSync

/// The `<- ...` line that says what a peer's changes did, naming the rows:
/// `<- 2 inserted ("Paris", "Rome"), 1 moved ("Tokyo") by replica 34734c25accf7fb1`.
enum ChangeAnnouncement {
    /// How many rows of each kind are named before `and N more`.
    static let namesShown = 3
    /// How many characters of a row's text are shown before `…`.
    static let nameLength = 30

    /// The announcement of `event`, made by `by` (`replica 2`), for the rows as they were before it.
    /// - Complexity: O(k) for k changed rows.
    static func line(for event: ChangeEvent<Entry>, before rows: [Row<Entry>], by: String) -> String {
        let change = event.change
        let kinds: [(verb: String, rows: [Row<Entry>])] = [
            ("inserted", event.insertedRows),
            ("moved", change.moved.map { rows[$0.from] }),
            ("removed", change.removed.map { rows[$0] }),
            ("updated", event.updatedRows),
        ]
        let parts = kinds.filter { !$0.rows.isEmpty }.map { kind in
            "\(kind.rows.count) \(kind.verb) (\(kind.rows.map { name($0.value.description) }.listed(upTo: namesShown)))"
        }
        return "<- \(parts.isEmpty ? "no change" : parts.joined(separator: ", ")) by \(by)"
    }

    /// `"Paris"`: a row's text in double quotes, cut to ``nameLength`` characters, controls escaped.
    static func name(_ text: String) -> String {
        let shown = text.count > nameLength ? text.prefix(nameLength - 1) + "…" : Substring(text)
        return "\"\(shown.escapingControlCharacters)\""
    }
}
