import Synchronization

/// Turns the network layer's log lines (``PeerConfiguration/log``) into lines a person reads easily.
///
/// The replica prefix `listsync[…] ` is dropped (each process logs for one replica). A dial that
/// fails logs two lines, the close of its socket and the reconnect delay; they become one:
/// `connecting to 127.0.0.1:7001 failed (connection refused); retrying in 0.5 s`. A failed handshake
/// gets a hint about secrets. The listening line is dropped: the peer prints its address on standard
/// output. Everything else passes through unchanged.
final class PeerLog: Sendable {
    /// Where the lines go.
    private let output: PeerOutput
    /// Why the last attempt of each dialed endpoint failed, until its reconnect line is written.
    private let failures = Mutex<[String: String]>([:])

    /// A log writing to `output`.
    init(output: PeerOutput) { self.output = output }

    /// Formats and writes one line of the network layer.
    func write(_ line: String) {
        if let formatted = format(line) { output.log(formatted) }
    }

    /// The readable form of `line`, or nil when it says nothing new.
    private func format(_ line: String) -> String? {
        var message = Substring(line)
        if message.hasPrefix("listsync["), let end = message.firstIndex(of: "]") {
            message = message[message.index(after: end)...].drop { $0 == " " }
        }
        if message.hasPrefix("listening on ") { return nil }
        // `connecting to ADDR failed: connect: Connection refused (errno 111)` (the connect call failed)
        // or `connection #N ADDR closed: error 17 socket: connect: ...` (the non-blocking connect failed).
        if let (endpoint, reason) = Self.failedConnect(message) {
            failures.withLock { $0[endpoint] = reason }
            return nil
        }
        if message.hasPrefix("reconnecting to "), let range = message.range(of: " in ") {
            let endpoint = String(message[message.index(message.startIndex, offsetBy: 16)..<range.lowerBound])
            let milliseconds = Int(message[range.upperBound...].prefix { $0.isNumber }) ?? 0
            let delay = Duration.milliseconds(milliseconds).secondsText
            if let reason = failures.withLock({ $0.removeValue(forKey: endpoint) }) {
                return "connecting to \(endpoint) failed (\(reason)); retrying in \(delay)"
            }
            return "redialing \(endpoint) in \(delay)"
        }
        if message.contains("authenticationFailed") {
            return message + " (the peers' secrets differ: give every peer the same --secret-file)"
        }
        if message.contains("wrongDocument") {
            return message + " (the peers' --document or secrets differ: give every peer the same ones)"
        }
        return String(message)
    }

    /// The endpoint and the lower-cased reason of a line that reports a failed connect, else nil.
    private static func failedConnect(_ message: Substring) -> (endpoint: String, reason: String)? {
        let words = message.split(separator: " ", maxSplits: 3)
        let endpoint: Substring
        if message.hasPrefix("connecting to "), message.contains(" failed: "), words.count > 2 {
            endpoint = words[2]
        } else if message.hasPrefix("connection "), message.contains(" closed: error 17 socket: connect: "),
            words.count > 2
        {
            endpoint = words[2]
        } else {
            return nil
        }
        var reason = message.split(separator: ": ").last.map(String.init) ?? "unknown error"
        if let errno = reason.range(of: " (errno ") { reason = String(reason[..<errno.lowerBound]) }
        return (String(endpoint), reason.prefix(1).lowercased() + reason.dropFirst())
    }
}
