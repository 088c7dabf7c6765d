extension Character {
    /// How many terminal columns the character takes: 2 for East Asian wide and full-width characters
    /// and emoji shown as pictures, 0 for a control character, else 1.
    var terminalWidth: Int {
        guard let first = unicodeScalars.first else { return 0 }
        if first.isControl { return 0 }
        if first.properties.isEmojiPresentation || unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        return Self.wideRanges.contains { $0.contains(first.value) } ? 2 : 1
    }

    /// The East Asian wide and full-width blocks (Unicode's EastAsianWidth W and F, in broad blocks).
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD,
    ]
}

extension Sequence<Character> {
    /// How many terminal columns the characters take (``Character/terminalWidth``).
    /// - Complexity: O(n) for n characters.
    var terminalWidth: Int { reduce(0) { $0 + $1.terminalWidth } }
}
