import Foundation

extension StringProtocol {
    /// The text quoted for a message: `'text'`, or when it is longer than 40 characters, its first 40,
    /// `…` and its length (`'xxxx…' (500,000 characters)`), so a huge input is never echoed whole;
    /// control characters are written as `\u{1B}` (``escapingControlCharacters``), never echoed raw.
    var quoted: String {
        let limit = 40
        guard utf8.count > limit, count > limit else { return "'\(escapingControlCharacters)'" }
        return "'\(prefix(limit).escapingControlCharacters)…' (\(count.formatted()) characters)"
    }
}
