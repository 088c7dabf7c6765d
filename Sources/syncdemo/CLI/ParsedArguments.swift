import ListSyncNetwork

/// A parsed command line, with typed accessors that throw ``UsageError`` naming the option at fault.
struct ParsedArguments {
    /// The command, for error messages.
    let command: String
    /// Option values by name (a flag has one empty value).
    var values: [String: [String]] = [:]
    /// Positional arguments, in order.
    var positionals: [String] = []

    /// Whether flag `--name` was given.
    func flag(_ name: String) -> Bool { values[name] != nil }

    /// The value of `--name`, or nil.
    func string(_ name: String) -> String? { values[name]?.last }

    /// Every value of a repeatable `--name`, in order.
    func strings(_ name: String) -> [String] { values[name] ?? [] }

    /// The value of `--name` as an integer in `range`, or `defaultValue` when absent.
    func integer<Value: FixedWidthInteger>(
        _ name: String, default defaultValue: Value, in range: ClosedRange<Value>
    ) throws(UsageError) -> Value {
        guard let text = string(name) else { return defaultValue }
        guard let value = Value(text.replacingOccurrences(of: "_", with: "")), range.contains(value) else {
            throw error(
                "option '--\(name)' expects an integer from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return value
    }

    /// The value of `--name` as a probability from 0 to 1 (`0.05` or `5%`), or 0 when absent.
    func rate(_ name: String) throws(UsageError) -> Double {
        guard let text = string(name) else { return 0 }
        let isPercent = text.hasSuffix("%")
        guard let number = Double(isPercent ? String(text.dropLast()) : text) else {
            throw error("option '--\(name)' expects a rate such as 0.05 or 5%, got '\(text)'")
        }
        let rate = isPercent ? number / 100 : number
        guard (0...1).contains(rate) else {
            throw error("option '--\(name)' must be between 0 and 1 (or 0% and 100%), got '\(text)'")
        }
        return rate
    }

    /// The value of `--name` as a duration (`250ms`, `2s`, `1.5s`, `1m`), or `defaultValue` when absent.
    func duration(_ name: String, default defaultValue: Duration) throws(UsageError) -> Duration {
        guard let text = string(name) else { return defaultValue }
        guard let duration = Duration(parsing: text) else {
            throw error("option '--\(name)' expects a duration such as 500ms, 2s or 1m, got '\(text)'")
        }
        return duration
    }

    /// Every value of `--name` as a `HOST:PORT` endpoint.
    func endpoints(_ name: String) throws(UsageError) -> [Endpoint] {
        var endpoints: [Endpoint] = []
        for text in strings(name) {
            guard let endpoint = Endpoint(parsing: text) else {
                throw error(
                    "option '--\(name)' expects HOST:PORT with a numeric address or localhost, "
                        + "e.g. 127.0.0.1:7000 or [::1]:7000, got '\(text)'")
            }
            endpoints.append(endpoint)
        }
        return endpoints
    }

    /// A usage error of this command.
    func error(_ message: String) -> UsageError { UsageError(command: command, message: message) }
}

extension Duration {
    /// Parses `250ms`, `2s`, `1.5s`, `1m` or a bare number of seconds; nil when malformed or negative.
    init?(parsing text: String) {
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60)]
        let unit = units.first { text.hasSuffix($0.suffix) } ?? ("", 1)
        guard let number = Double(text.dropLast(unit.suffix.count)), number >= 0, number.isFinite else { return nil }
        self = .milliseconds(Int64((number * unit.seconds * 1000).rounded()))
    }
}

extension Endpoint {
    /// Parses `HOST:PORT`, `[IPv6]:PORT` or `localhost:PORT`; nil when malformed.
    init?(parsing text: String) {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            return nil
        }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" { host = "127.0.0.1" }
        let isIPv4 =
            host.split(separator: ".", omittingEmptySubsequences: false).count == 4
            && host.split(separator: ".").allSatisfy { UInt8($0) != nil }
        guard isIPv4 || (host.contains(":") && host.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }) else {
            return nil
        }
        self.init(host: host, port: port)
    }
}
