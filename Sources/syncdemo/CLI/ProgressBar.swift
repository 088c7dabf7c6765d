/// A progress bar redrawn in place on standard error, only when standard error is a terminal.
struct ProgressBar {
    /// What is counted, after the numbers: `operations`.
    var unit: String
    /// The count at 100%.
    var total: Int
    /// Whether to draw at all.
    var isShown = Console.errorIsTerminal
    /// The percentage last drawn.
    private var drawn = -1

    /// A bar counting up to `total` `unit`.
    init(unit: String, total: Int) {
        self.unit = unit
        self.total = total
    }

    /// Redraws the bar for `done` of ``total`` when its percentage changed.
    mutating func update(_ done: Int) {
        let percent = total == 0 ? 100 : done * 100 / total
        guard isShown && percent != drawn else { return }
        drawn = percent
        let filled = percent * 30 / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: 30 - filled)
        Console.status("\r[\(bar)] \(percent)% \(done.formatted())/\(total.formatted()) \(unit)")
    }

    /// Erases the bar.
    func clear() {
        if isShown { Console.status("\r\u{1B}[K") }
    }
}
