/// A wrong command line: what was wrong, for which command; printed with a pointer to its help.
struct UsageError: Error, Equatable {
    /// The command whose line was wrong, e.g. `syncdemo simulate`.
    var command: String
    /// What was wrong and, where it helps, how to fix it.
    var message: String

    /// The lines printed to standard error.
    var report: String { "\(command): \(message)\nTry '\(command) --help' for the options." }
}
