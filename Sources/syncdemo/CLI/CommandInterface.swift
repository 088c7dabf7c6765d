/// One option of a command: `--name VALUE`, or a flag `--name` when it takes no value.
struct Option {
    /// The long name without dashes, kebab-case: `drop-rate`.
    var name: String
    /// The value's placeholder in help (`RATE`), or nil for a flag.
    var valueName: String?
    /// One line (or a few) of help; mention the default.
    var help: String
    /// Whether the option may be given more than once (`--connect A --connect B`).
    var isRepeatable = false
}

/// What a command accepts and how its help reads: OVERVIEW, USAGE, ARGUMENTS, OPTIONS, then notes.
struct CommandInterface {
    /// The full command name: `syncdemo simulate`.
    var name: String
    /// One sentence: what the command does.
    var overview: String
    /// The usage line after the command name: `--replicas R --ops N [--seed S]`.
    var usage: String
    /// Positional arguments with their help, in order.
    var arguments: [(name: String, help: String)] = []
    /// The options; `--help` is added to every command.
    var options: [Option] = []
    /// Free text after the options: formats, examples.
    var notes: String?

    /// The `--help` text.
    var help: String {
        var lines = ["OVERVIEW: \(overview)", "", "USAGE: \(name) \(usage)"]
        if !arguments.isEmpty {
            lines += ["", "ARGUMENTS:"]
            lines += arguments.map { Self.row($0.name, $0.help) }
        }
        lines += ["", "OPTIONS:"]
        for option in options {
            let label = "--\(option.name)" + (option.valueName.map { " <\($0)>" } ?? "")
            lines.append(Self.row(label, option.help + (option.isRepeatable ? " (repeatable)" : "")))
        }
        lines.append(Self.row("-h, --help", "Show this help."))
        if let notes { lines += ["", notes] }
        return lines.joined(separator: "\n")
    }

    /// A help row: the label padded to a column, then the text (wrapped lines indented to it).
    private static func row(_ label: String, _ text: String) -> String {
        let column = 26
        let indent = String(repeating: " ", count: column + 2)
        let head = "  " + label + String(repeating: " ", count: max(1, column - label.count))
        let body = text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n" + indent)
        return label.count >= column ? "  \(label)\n\(indent)\(body)" : head + body
    }

    /// Parses `arguments` (after the command name): options anywhere, `--name=value` or `--name value`,
    /// `--` ends options. Returns nil when help was asked for.
    /// - Throws: ``UsageError`` for an unknown option (with the nearest known one), a missing value, a
    ///   repeated non-repeatable option, or more positional arguments than the command takes.
    func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments? {
        var parsed = ParsedArguments(command: name)
        var remaining = arguments[...]
        var optionsEnded = false
        while let argument = remaining.popFirst() {
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if argument == "-h" || argument == "--help" { return nil }
            let body = argument.drop { $0 == "-" }
            let (key, inlineValue) =
                body.firstIndex(of: "=").map { (String(body[..<$0]), String(body[body.index(after: $0)...])) }
                ?? (String(body), nil)
            guard let option = options.first(where: { $0.name == key }), argument.hasPrefix("--") else {
                throw error("unknown option \(argument.quoted)" + suggestion(for: key))
            }
            if !option.isRepeatable && parsed.values[key] != nil {
                throw error("option '--\(key)' is given twice; give it once")
            }
            guard let valueName = option.valueName else {
                if inlineValue != nil { throw error("option '--\(key)' takes no value") }
                parsed.values[key] = [""]
                continue
            }
            guard let value = inlineValue ?? remaining.popFirst() else {
                throw error("option '--\(key)' needs a value: --\(key) <\(valueName)>")
            }
            parsed.values[key, default: []].append(value)
        }
        guard parsed.positionals.count <= self.arguments.count else {
            let extra = parsed.positionals[self.arguments.count]
            throw error(
                self.arguments.isEmpty
                    ? "unexpected argument \(extra.quoted); this command takes options only"
                    : "unexpected argument \(extra.quoted); expected \(self.arguments.map(\.name).joined(separator: " "))"
            )
        }
        return parsed
    }

    /// A usage error of this command.
    func error(_ message: String) -> UsageError { UsageError(command: name, message: message) }

    /// "; did you mean '--x'?" for the option nearest `key` by edit distance, when it is near.
    private func suggestion(for key: String) -> String {
        Suggestion.nearest(to: key, among: options.map(\.name), within: max(2, key.count / 3))
            .map { "; did you mean '--\($0)'?" } ?? ""
    }
}
