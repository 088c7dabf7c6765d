#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The terminal on standard input in raw mode (no echo, bytes as typed), for ``LineEditor``, and its
/// settings put back however the process ends: by ``restore()``, by `exit`, or by a signal.
///
/// Only ECHO, ICANON and IEXTEN (local), and IXON, ICRNL, INLCR, ISTRIP and BRKINT (input) are turned
/// off: ISIG stays on, so Ctrl-C, Ctrl-\ and Ctrl-Z still signal the process, and output processing
/// stays on, so lines printed meanwhile end as usual. On SIGINT, SIGTERM, SIGHUP, SIGQUIT and the crash
/// signals the handler puts the saved settings back, ends the prompt's row, and lets the signal do
/// what it did before (the default: end the process). On Ctrl-Z (SIGTSTP) it puts them back, stops,
/// and after `fg` turns raw mode on again; the next key redraws the line (Ctrl-L at once).
final class RawMode {
    /// The signals after which the terminal is put back; each then does what it did before.
    private static let endingSignals = [
        SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGABRT, SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE,
    ]

    /// Whether raw mode is on (one instance at a time).
    private var isOn = true

    /// Turns raw mode on for standard input; nil when it is not a terminal (or already raw).
    init?() {
        guard rawModeSaved == nil, isatty(STDIN_FILENO) == 1 else { return nil }
        let saved = UnsafeMutablePointer<SavedTerminal>.allocate(capacity: 1)
        let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 32)
        previous.initialize(repeating: sigaction(), count: 32)
        saved.initialize(to: SavedTerminal(previous: previous))
        guard tcgetattr(STDIN_FILENO, &saved.pointee.cooked) == 0 else {
            previous.deallocate()
            saved.deallocate()
            return nil
        }
        var raw = saved.pointee.cooked
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | INLCR | ISTRIP | BRKINT)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        saved.pointee.raw = raw
        // Published before any handler can run, and written again only by `restore()` after the
        // handlers are gone.
        rawModeSaved = saved
        for signal in Self.endingSignals { install(signal, handler: restoreAndResignal) }
        install(SIGTSTP, handler: suspend)
        atexit { restoreTerminal() }
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved.pointee.raw) == 0 else {
            restore()
            return nil
        }
    }

    deinit { restore() }

    /// Puts the terminal's settings and the signals' handlers back as they were; later calls do nothing.
    func restore() {
        guard isOn, let saved = rawModeSaved else { return }
        isOn = false
        tcsetattr(STDIN_FILENO, TCSANOW, &saved.pointee.cooked)
        for signal in Self.endingSignals + [SIGTSTP] { sigaction(signal, saved.pointee.previous + Int(signal), nil) }
        rawModeSaved = nil
        saved.pointee.previous.deallocate()
        saved.deallocate()
    }

    /// Handles `signal` with `handler`, remembering the previous action; a signal that was ignored stays ignored.
    private func install(_ signal: Int32, handler: @convention(c) (Int32) -> Void) {
        guard let saved = rawModeSaved else { return }
        var action = sigaction()
        #if canImport(Glibc)
            action.__sigaction_handler = .init(sa_handler: handler)
        #else
            action.__sigaction_u = __sigaction_u(__sa_handler: handler)
        #endif
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        var previous = sigaction()
        sigaction(signal, nil, &previous)
        saved.pointee.previous[Int(signal)] = previous
        #if canImport(Glibc)
            let ignored = unsafeBitCast(previous.__sigaction_handler.sa_handler, to: Int.self) == 1
        #else
            let ignored = unsafeBitCast(previous.__sigaction_u.__sa_handler, to: Int.self) == 1
        #endif
        if !ignored { sigaction(signal, &action, nil) }
    }
}

/// What the signal handlers need: the terminal's settings before and in raw mode, and every signal's
/// previous action (indexed by signal number), in memory allocated up front so a handler never allocates.
private struct SavedTerminal {
    var cooked = termios()
    var raw = termios()
    /// Room for every signal number below 32 (all those handled, on Linux and Darwin).
    var previous: UnsafeMutablePointer<sigaction>
}

/// The saved settings while raw mode is on, else nil.
// Unsafe by design, as signal handlers need: it is written only on the thread that turns raw mode on
// or off, while no handler is installed (set before they are installed, cleared after they are
// removed), so a handler only ever reads a fully written pointer; the handlers call only
// async-signal-safe functions (tcsetattr, sigaction, write, raise, pthread_sigmask).
nonisolated(unsafe) private var rawModeSaved: UnsafeMutablePointer<SavedTerminal>?

/// Puts the terminal back as it was before raw mode (at exit, or in a handler); nothing when not raw.
private func restoreTerminal() {
    guard let saved = rawModeSaved else { return }
    tcsetattr(STDIN_FILENO, TCSANOW, &saved.pointee.cooked)
}

/// The handler of the ending signals: the terminal back, the prompt's row ended, then the signal again
/// with its previous action (delivered once this handler returns).
private func restoreAndResignal(_ signal: Int32) {
    guard let saved = rawModeSaved else { return }
    restoreTerminal()
    var newline: UInt8 = 0x0A
    _ = write(STDERR_FILENO, &newline, 1)
    sigaction(signal, saved.pointee.previous + Int(signal), nil)
    raise(signal)
}

/// The handler of Ctrl-Z: the terminal back, stopped as before, and raw again after `fg`.
private func suspend(_ signal: Int32) {
    guard let saved = rawModeSaved else { return }
    restoreTerminal()
    var newline: UInt8 = 0x0A
    _ = write(STDERR_FILENO, &newline, 1)
    var ours = sigaction()
    sigaction(signal, saved.pointee.previous + Int(signal), &ours)
    var mask = sigset_t()
    sigemptyset(&mask)
    sigaddset(&mask, signal)
    raise(signal)
    pthread_sigmask(SIG_UNBLOCK, &mask, nil)  // the stop happens here, until SIGCONT
    pthread_sigmask(SIG_BLOCK, &mask, nil)
    sigaction(signal, &ours, nil)
    tcsetattr(STDIN_FILENO, TCSANOW, &saved.pointee.raw)
}
