/// The process exit codes of every subcommand (sysexits.h for usage errors).
enum ExitCode: Int32 {
    /// The command did what it was asked (the demo converged, the scenario's assertions held).
    case success = 0
    /// The command ran but failed: replicas did not converge, an assertion failed, an I/O error.
    case failure = 1
    /// The command line was wrong; nothing was done.
    case usage = 64
}
