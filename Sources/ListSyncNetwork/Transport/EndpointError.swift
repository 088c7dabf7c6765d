/// Why a text is not an endpoint (``Endpoint/init(parsing:)``); each case carries the part at fault.
public enum EndpointError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text is longer than any endpoint (``Endpoint/maximumTextByteCount`` bytes).
    case tooLong(byteCount: Int)
    /// No `:PORT` at the end.
    case missingPort
    /// The port is not a number from 0 to 65535.
    case invalidPort(String)
    /// Nothing before `:PORT`.
    case emptyHost
    /// A `[` without its `]`, or text between `]` and `:PORT`.
    case unbalancedBrackets
    /// An IPv6 address without brackets: `[::1]:7000`, not `::1:7000`.
    case unbracketedIPv6(String)
    /// Inside brackets, something that is not an IPv6 address; or digits and dots that are not an IPv4
    /// address.
    case invalidAddress(String)
    /// The scope after `%` is empty, too long, or not an interface name or number; or follows an IPv4
    /// address or a host name.
    case invalidScope(String)
    /// Not a host name: each dot-separated label 1 to 63 letters, digits, `-` or `_`, at most 253 bytes.
    case invalidHostName(String)

    /// `invalid port "70000": expected 0 to 65535`.
    public var description: String {
        switch self {
        case .tooLong(let count): "endpoint too long: \(count) bytes, at most \(Endpoint.maximumTextByteCount)"
        case .missingPort: "missing :PORT (e.g. 127.0.0.1:7000, [::1]:7000, phone.local:7000)"
        case .invalidPort(let text): "invalid port \"\(text)\": expected 0 to 65535"
        case .emptyHost: "missing host before :PORT"
        case .unbalancedBrackets: "unbalanced brackets: write an IPv6 endpoint as [ADDRESS]:PORT"
        case .unbracketedIPv6(let host): "IPv6 address \"\(host)\" needs brackets: [\(host)]:PORT"
        case .invalidAddress(let host): "invalid IP address \"\(host)\""
        case .invalidScope(let scope): "invalid scope \"\(scope)\": expected an interface name or number after %"
        case .invalidHostName(let host):
            "invalid host name \"\(host)\": labels of letters, digits, - and _ separated by dots"
        }
    }
}
