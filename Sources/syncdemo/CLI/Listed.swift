extension Array where Element == String {
    /// The items as an English list of at most `limit` of them: `a`, `a and b`, `a, b and c`, or the
    /// first `limit` and how many more: `a, b, c and 4 more`.
    func listed(upTo limit: Int) -> String {
        let shown = prefix(Swift.max(1, limit))
        guard count > shown.count else {
            guard let last = shown.last, shown.count > 1 else { return shown.first ?? "" }
            return shown.dropLast().joined(separator: ", ") + " and " + last
        }
        return shown.joined(separator: ", ") + " and \(count - shown.count) more"
    }
}
