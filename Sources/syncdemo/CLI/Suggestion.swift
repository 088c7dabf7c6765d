/// "Did you mean …?" for a mistyped command, option or directive.
enum Suggestion {
    /// The longest word suggestions are computed for: a longer one is no typo of a short name, and the
    /// distance would cost time in proportion to its length.
    static let longestWord = 64

    /// The candidate nearest `word` by edit distance, when it is at most `maximumDistance` away; nil for
    /// a word longer than ``longestWord``.
    /// - Complexity: O(c × w × k) for c candidates of at most k characters and w ≤ 64 characters of `word`.
    static func nearest(to word: String, among candidates: [String], within maximumDistance: Int = 2) -> String? {
        guard word.count <= longestWord else { return nil }
        let scored = candidates.map { ($0, editDistance($0, word)) }
        guard let (nearest, distance) = scored.min(by: { $0.1 < $1.1 }), distance <= maximumDistance else {
            return nil
        }
        return nearest
    }

    /// The edit distance between two strings, by characters: the fewest insertions, deletions,
    /// substitutions and swaps of two neighbouring characters that turn one into the other (optimal
    /// string alignment), so the common typo `lsit` is one edit from `list` (and two from `edit`).
    /// - Complexity: O(a × b) for strings of a and b characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty else { return b.count }
        var beforePrevious: [Int] = []
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(
                    previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            beforePrevious = previous
            previous = current
        }
        return previous[b.count]
    }
}
