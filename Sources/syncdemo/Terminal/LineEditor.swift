/// The line being typed at the `syncdemo peer` prompt, as a state machine with no terminal: it takes
/// the bytes a terminal in raw mode sends (UTF-8 text, control keys, escape sequences) one at a time
/// and keeps the line, the cursor and the history; ``TerminalLines`` draws what it holds.
///
/// Keys: Left/Right (and Ctrl-B/Ctrl-F) move by a character, Ctrl-Left/Ctrl-Right and Alt-B/Alt-F by a
/// word, Home/End and Ctrl-A/Ctrl-E to the ends; Backspace (and Ctrl-H) and Delete erase a character,
/// Ctrl-W and Alt-Backspace the word before the cursor, Alt-D the word after it, Ctrl-U everything
/// before the cursor and Ctrl-K everything after it; Up/Down (and Ctrl-P/Ctrl-N) walk the history;
/// Enter submits; Ctrl-D erases the character under the cursor, or on an empty line ends the input;
/// Ctrl-L redraws; Tab types a blank. Words are separated by blanks.
///
/// No control character ever enters the line: every other control key and escape sequence is
/// consumed and rejected (``Event/rejected(_:)``), and so are C1 controls, malformed UTF-8 and text
/// beyond ``maximumLength`` bytes.
struct LineEditor {
    /// What a byte did.
    enum Event: Equatable {
        /// The line or the cursor changed: draw it again.
        case changed
        /// Enter: the line typed, now the newest history entry (unless empty or a repeat of it); the
        /// editor holds a new empty line.
        case submitted(String)
        /// Ctrl-D on an empty line: the user is done, as at the end of piped input.
        case endOfInput
        /// Ctrl-L: clear the screen and draw the line again.
        case clearScreen
        /// The byte (or the sequence it ends) was refused; the line is unchanged, except by the byte
        /// that breaks off a UTF-8 sequence, which is read afresh (draw the line again after this too).
        case rejected(Rejection)
    }

    /// Why input was refused.
    enum Rejection: Equatable {
        /// A control key or escape sequence that means nothing here, or a C1 control character.
        case controlCharacter
        /// Bytes that are not UTF-8.
        case notUTF8
        /// The line already holds ``LineEditor/maximumLength`` bytes.
        case tooLong
        /// A move or erase with nothing to move over or erase (start or end of the line or history).
        case nothingThere
    }

    /// Where the escape-sequence parser is.
    private enum Escape {
        /// Not in a sequence.
        case none
        /// After ESC.
        case escape
        /// After ESC [ and these parameter and intermediate bytes (at most ``LineEditor/longestSequence``;
        /// `overflowed` when there were more, so the sequence is rejected).
        case csi([UInt8], overflowed: Bool)
        /// After ESC O.
        case ss3
    }

    /// The most parameter bytes of an escape sequence kept; a longer sequence is consumed and rejected.
    static let longestSequence = 16

    /// The line, by characters.
    private(set) var characters: [Character] = []
    /// The cursor: how many characters precede it, 0 to `characters.count`.
    private(set) var cursor = 0
    /// Submitted lines, oldest first, at most ``historyLimit``.
    private(set) var history: [String] = []
    /// The most lines the history keeps.
    let historyLimit: Int
    /// The most bytes (UTF-8) the line may hold.
    let maximumLength: Int

    /// The line's length in UTF-8 bytes.
    private var byteCount = 0
    /// While walking the history: the entries as edited so far and the newest, unsubmitted line last,
    /// and which of them is shown; nil when not walking.
    private var browsing: (entries: [String], index: Int)?
    /// The bytes of an unfinished UTF-8 sequence, and how many it needs in all.
    private var partial: [UInt8] = []
    private var partialLength = 0
    /// The escape-sequence parser's state.
    private var escape = Escape.none
    /// Whether the last byte was CR, so an LF right after it is part of the same Enter.
    private var afterCR = false

    /// An empty editor keeping `historyLimit` lines of history, each line at most `maximumLength` bytes.
    init(historyLimit: Int = 500, maximumLength: Int = LineReader.maximumLength) {
        self.historyLimit = historyLimit
        self.maximumLength = maximumLength
    }

    /// The line as text.
    var text: String { String(characters) }

    /// Takes one byte from the terminal.
    /// - Returns: what it did, or nil when it only advanced an unfinished UTF-8 character or escape sequence.
    /// - Complexity: O(n) for a line of n characters (an insertion or deletion in the middle moves the rest).
    mutating func feed(_ byte: UInt8) -> Event? {
        let wasAfterCR = afterCR
        afterCR = false
        switch escape {
        case .escape: return afterEscape(byte)
        case .csi(let parameters, let overflowed): return inSequence(parameters, overflowed, byte)
        case .ss3:
            escape = .none
            return key(final: byte, parameters: [])
        case .none: break
        }
        if !partial.isEmpty || byte >= 0x80 { return utf8(byte) }
        switch byte {
        case 0x0D:
            afterCR = true
            return submit()
        case 0x0A: return wasAfterCR ? nil : submit()
        case 0x1B:
            escape = .escape
            return nil
        case 0x20..<0x7F: return insert(Unicode.Scalar(byte))
        default: return control(byte)
        }
    }

    /// Takes every byte of `bytes`.
    /// - Returns: the events, in order.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [Event] {
        bytes.compactMap { feed($0) }
    }

    /// A control key (a byte below 0x20, or DEL).
    private mutating func control(_ byte: UInt8) -> Event? {
        switch byte {
        case 0x01: moveTo(0)  // Ctrl-A
        case 0x02: moveTo(cursor - 1)  // Ctrl-B
        case 0x04: characters.isEmpty ? .endOfInput : erase(cursor..<cursor + 1)  // Ctrl-D
        case 0x05: moveTo(characters.count)  // Ctrl-E
        case 0x06: moveTo(cursor + 1)  // Ctrl-F
        case 0x08, 0x7F: erase(cursor - 1..<cursor)  // Ctrl-H, Backspace
        case 0x09: insert(" ")  // Tab
        case 0x0B: erase(cursor..<characters.count)  // Ctrl-K
        case 0x0C: .clearScreen  // Ctrl-L
        case 0x0E: walkHistory(by: 1)  // Ctrl-N
        case 0x10: walkHistory(by: -1)  // Ctrl-P
        case 0x15: erase(0..<cursor)  // Ctrl-U
        case 0x17: erase(wordStart(before: cursor)..<cursor)  // Ctrl-W
        default: .rejected(.controlCharacter)
        }
    }

    /// The byte after ESC: `[` or `O` starts a sequence; Alt-B, Alt-F, Alt-D and Alt-Backspace edit by word.
    private mutating func afterEscape(_ byte: UInt8) -> Event? {
        escape = .none
        switch byte {
        case UInt8(ascii: "["):
            escape = .csi([], overflowed: false)
            return nil
        case UInt8(ascii: "O"):
            escape = .ss3
            return nil
        case 0x1B:
            escape = .escape  // ESC ESC: the first was a lone Escape key
            return nil
        case UInt8(ascii: "b"): return moveTo(wordStart(before: cursor))
        case UInt8(ascii: "f"): return moveTo(wordEnd(after: cursor))
        case UInt8(ascii: "d"): return erase(cursor..<wordEnd(after: cursor))
        case 0x7F, 0x08: return erase(wordStart(before: cursor)..<cursor)
        default: return .rejected(.controlCharacter)
        }
    }

    /// A byte inside `ESC [`: a parameter or intermediate byte (kept, up to a limit), or the final byte.
    private mutating func inSequence(_ parameters: [UInt8], _ overflowed: Bool, _ byte: UInt8) -> Event? {
        switch byte {
        case 0x20...0x3F:
            let fits = parameters.count < Self.longestSequence
            escape = .csi(fits ? parameters + [byte] : parameters, overflowed: overflowed || !fits)
            return nil
        case 0x40...0x7E:
            escape = .none
            return overflowed ? .rejected(.controlCharacter) : key(final: byte, parameters: parameters)
        default:
            escape = .none  // not a sequence after all
            return .rejected(.controlCharacter)
        }
    }

    /// The key an escape sequence ending in `final` names: `ESC [ D`, `ESC O H`, `ESC [ 3 ~`, `ESC [ 1 ; 5 C`.
    private mutating func key(final: UInt8, parameters: [UInt8]) -> Event? {
        let fields = parameters.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).map {
            Int(String(decoding: $0, as: UTF8.self))
        }
        let modified = fields.count == 2 && fields[1].map { $0 > 1 } == true
        switch (final, fields.first ?? nil) {
        case (UInt8(ascii: "A"), _): return walkHistory(by: -1)
        case (UInt8(ascii: "B"), _): return walkHistory(by: 1)
        case (UInt8(ascii: "C"), _): return moveTo(modified ? wordEnd(after: cursor) : cursor + 1)
        case (UInt8(ascii: "D"), _): return moveTo(modified ? wordStart(before: cursor) : cursor - 1)
        case (UInt8(ascii: "H"), _), (UInt8(ascii: "~"), 1), (UInt8(ascii: "~"), 7): return moveTo(0)
        case (UInt8(ascii: "F"), _), (UInt8(ascii: "~"), 4), (UInt8(ascii: "~"), 8): return moveTo(characters.count)
        case (UInt8(ascii: "~"), 3): return erase(cursor..<cursor + 1)
        default: return .rejected(.controlCharacter)
        }
    }

    /// A byte of a multi-byte UTF-8 character.
    private mutating func utf8(_ byte: UInt8) -> Event? {
        if partial.isEmpty {
            switch byte {
            case 0xC2...0xDF: partialLength = 2
            case 0xE0...0xEF: partialLength = 3
            case 0xF0...0xF4: partialLength = 4
            default: return .rejected(.notUTF8)
            }
            partial = [byte]
            return nil
        }
        guard (0x80...0xBF).contains(byte) else {
            partial = []
            // The sequence broke off: it is dropped and refused, and this byte read afresh (what it
            // does is reported instead when it ends the line or clears the screen).
            let next = feed(byte)
            switch next {
            case .submitted?, .endOfInput?, .clearScreen?: return next
            default: return .rejected(.notUTF8)
            }
        }
        partial.append(byte)
        guard partial.count == partialLength else { return nil }
        defer { partial = [] }
        var decoder = UTF8()
        var bytes = partial.makeIterator()
        guard case .scalarValue(let scalar) = decoder.decode(&bytes) else { return .rejected(.notUTF8) }
        return scalar.isControl ? .rejected(.controlCharacter) : insert(scalar)
    }

    /// Inserts `scalar` at the cursor, joining the character before it when they form one (an accent
    /// typed after its letter, the halves of an emoji).
    private mutating func insert(_ scalar: Unicode.Scalar) -> Event {
        guard byteCount + scalar.utf8.count <= maximumLength else { return .rejected(.tooLong) }
        byteCount += scalar.utf8.count
        if cursor > 0 {
            var joined = String(characters[cursor - 1])
            joined.unicodeScalars.append(scalar)
            if joined.count == 1 {
                characters[cursor - 1] = Character(joined)
                return .changed
            }
        }
        characters.insert(Character(scalar), at: cursor)
        cursor += 1
        return .changed
    }

    /// Erases the characters in `range` (clamped to the line) and puts the cursor where they were.
    private mutating func erase(_ range: Range<Int>) -> Event {
        let range = range.clamped(to: 0..<characters.count)
        guard !range.isEmpty else { return .rejected(.nothingThere) }
        byteCount -= characters[range].reduce(0) { $0 + $1.utf8.count }
        characters.removeSubrange(range)
        cursor = range.lowerBound
        return .changed
    }

    /// Moves the cursor to `position`, when it is on the line and elsewhere.
    private mutating func moveTo(_ position: Int) -> Event {
        guard (0...characters.count).contains(position), position != cursor else { return .rejected(.nothingThere) }
        cursor = position
        return .changed
    }

    /// Where the word before `position` starts: back over blanks, then over the word.
    private func wordStart(before position: Int) -> Int {
        var start = position
        while start > 0 && characters[start - 1] == " " { start -= 1 }
        while start > 0 && characters[start - 1] != " " { start -= 1 }
        return start
    }

    /// Where the word after `position` ends: forward over blanks, then over the word.
    private func wordEnd(after position: Int) -> Int {
        var end = position
        while end < characters.count && characters[end] == " " { end += 1 }
        while end < characters.count && characters[end] != " " { end += 1 }
        return end
    }

    /// Shows the entry `step` places older (-1) or newer (+1) than the one shown, keeping edits made to
    /// the one left.
    private mutating func walkHistory(by step: Int) -> Event {
        var (entries, index) = browsing ?? (history + [text], history.count)
        guard entries.indices.contains(index + step) else { return .rejected(.nothingThere) }
        entries[index] = text
        index += step
        browsing = (entries, index)
        show(entries[index])
        return .changed
    }

    /// Enter: records the line in the history and starts an empty one.
    private mutating func submit() -> Event {
        let line = text
        if !line.allSatisfy({ $0 == " " }) && history.last != line {
            history.append(line)
            if history.count > historyLimit { history.removeFirst(history.count - historyLimit) }
        }
        browsing = nil
        show("")
        return .submitted(line)
    }

    /// Replaces the line with `line`, the cursor at its end.
    private mutating func show(_ line: String) {
        characters = Array(line)
        cursor = characters.count
        byteCount = line.utf8.count
    }
}
