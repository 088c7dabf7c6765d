/// A subcommand of `syncdemo`: its interface (options and help) and how it runs.
protocol Command {
    /// Name, options and help.
    static var interface: CommandInterface { get }
    /// Runs with parsed arguments.
    /// - Throws: ``UsageError`` for arguments the parser could not judge (exit 64), ``CommandFailure``
    ///   or any other error when the command could not do its job (exit 1).
    static func run(_ arguments: ParsedArguments) throws -> ExitCode
}

/// A command that could not do its job: what happened and how to fix it. Exit code 1.
struct CommandFailure: Error, CustomStringConvertible {
    /// The explanation printed to standard error.
    var description: String

    /// A failure explained by `description`.
    init(_ description: String) { self.description = description }
}
