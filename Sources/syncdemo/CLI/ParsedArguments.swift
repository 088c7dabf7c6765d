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
                "option '--\(name)' expects an integer from \(range.lowerBound) to \(range.upperBound), got \(text.quoted)"
            )
        }
        return value
    }

    /// The value of `--name` as a probability from 0 to 1 (`0.05` or `5%`), or 0 when absent.
    func rate(_ name: String) throws(UsageError) -> Double {
        guard let text = string(name) else { return 0 }
        let isPercent = text.hasSuffix("%")
        guard let number = Double(isPercent ? String(text.dropLast()) : text) else {
            throw error("option '--\(name)' expects a rate such as 0.05 or 5%, got \(text.quoted)")
        }
        let rate = isPercent ? number / 100 : number
        guard (0...1).contains(rate) else {
            throw error("option '--\(name)' must be between 0 and 1 (or 0% and 100%), got \(text.quoted)")
        }
        return rate
    }

    /// The value of `--name` as a duration (`250ms`, `2s`, `1.5s`, `1m`, at most 1h), or `defaultValue`
    /// when absent.
    func duration(_ name: String, default defaultValue: Duration) throws(UsageError) -> Duration {
        guard let text = string(name) else { return defaultValue }
        do {
            return try Duration(validating: text)
        } catch {
            throw self.error("option '--\(name)': \(error)")
        }
    }

    /// The value of `--name` as a size in bytes within `range` (`512KiB`, `4MiB`), or `defaultValue` when absent.
    func size(_ name: String, default defaultValue: Int, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let text = string(name) else { return defaultValue }
        do {
            return try ByteSize.parse(text, in: range)
        } catch {
            throw self.error("option '--\(name)': \(error)")
        }
    }

    /// Every value of `--name` as a `HOST:PORT` endpoint; port 0 only when `dialing` is false (to listen
    /// on a port the system picks).
    func endpoints(_ name: String, dialing: Bool) throws(UsageError) -> [Endpoint] {
        var endpoints: [Endpoint] = []
        for text in strings(name) {
            let endpoint: Endpoint
            do {
                endpoint = try Endpoint(parsing: text)
            } catch {
                throw self.error("option '--\(name)' expects HOST:PORT, got \(text.quoted): \(error)")
            }
            if dialing && endpoint.port == 0 { throw error("option '--\(name)': \(Endpoint.portZeroDialed)") }
            endpoints.append(endpoint)
        }
        return endpoints
    }

    /// A usage error of this command.
    func error(_ message: String) -> UsageError { UsageError(command: command, message: message) }
}

extension Endpoint {
    /// Why a peer cannot be dialed on port 0.
    static let portZeroDialed = "port 0 cannot be dialed; give the peer's port, 1 to 65535"
}
