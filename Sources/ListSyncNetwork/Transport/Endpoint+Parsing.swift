#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Endpoint {
    /// The longest text ``init(parsing:)`` accepts: a 253-byte host name, or an IPv6 address with a
    /// scope, in brackets, with a port.
    public static let maximumTextByteCount = 300

    /// Parses `HOST:PORT`: `127.0.0.1:7000`, `[::1]:7000`, `[fe80::1%en0]:7000`, `[fe80::1%4]:7000`,
    /// `localhost:7000`, `phone.local:7000`. Looks nothing up: a host name is resolved when dialed.
    /// - Throws: ``EndpointError`` naming the part at fault.
    public init(parsing text: String) throws(EndpointError) {
        guard text.utf8.count <= Self.maximumTextByteCount else { throw .tooLong(byteCount: text.utf8.count) }
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw .unbalancedBrackets }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { throw rest.isEmpty ? .missingPort : .unbalancedBrackets }
            portText = rest.dropFirst()
            guard host.contains(":") else { throw .invalidAddress(String(host)) }
        } else {
            guard let colon = text.lastIndex(of: ":") else { throw .missingPort }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
            guard !host.contains("[") && !host.contains("]") else { throw .unbalancedBrackets }
            guard !host.contains(":") else { throw .unbracketedIPv6(String(host)) }
        }
        guard (1...5).contains(portText.utf8.count), portText.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let port = UInt16(portText)
        else { throw .invalidPort(String(portText)) }
        try Self.validate(host: host)
        self.init(host: String(host), port: port)
    }

    /// Checks that `host` is an IPv4 address, an IPv6 address with an optional `%scope`, or a host name.
    static func validate(host: Substring) throws(EndpointError) {
        guard !host.isEmpty else { throw .emptyHost }
        if host.contains(":") {
            let parts = host.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false)
            guard isAddress(parts[0], family: AF_INET6) else { throw .invalidAddress(String(host)) }
            if parts.count == 2 { try validate(scope: parts[1]) }
        } else if host.contains("%") {
            throw .invalidScope(String(host))
        } else if host.utf8.allSatisfy({ $0 == UInt8(ascii: ".") || (0x30...0x39).contains($0) }) {
            guard isAddress(host, family: AF_INET) else { throw .invalidAddress(String(host)) }
        } else {
            try validate(hostName: host)
        }
    }

    /// Checks an IPv6 scope: an interface name (letters, digits, `.`, `-`, `_`) or number, as `if_nametoindex`
    /// takes it (at most 15 bytes).
    private static func validate(scope: Substring) throws(EndpointError) {
        let allowed = scope.utf8.allSatisfy { isNameByte($0) || $0 == UInt8(ascii: ".") }
        guard (1...15).contains(scope.utf8.count), allowed else { throw .invalidScope(String(scope)) }
    }

    /// Checks a host name: at most 253 bytes (one more for a final dot), labels of 1 to 63 ASCII letters,
    /// digits, `-` and `_`, not starting or ending with `-`.
    private static func validate(hostName: Substring) throws(EndpointError) {
        let name = hostName.hasSuffix(".") ? hostName.dropLast() : hostName
        let labels = name.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        let valid =
            name.utf8.count <= 253
            && labels.allSatisfy { label in
                (1...63).contains(label.count) && label.first != UInt8(ascii: "-") && label.last != UInt8(ascii: "-")
                    && label.allSatisfy(isNameByte)
            }
        guard valid else { throw .invalidHostName(String(hostName)) }
    }

    /// Whether `byte` is an ASCII letter or digit, `-` or `_`.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }

    /// Whether `text` is a numeric address of `family` (`AF_INET` or `AF_INET6`), as `inet_pton` reads it.
    private static func isAddress(_ text: Substring, family: Int32) -> Bool {
        guard !text.utf8.contains(0) else { return false }
        var bytes = (UInt64(0), UInt64(0))
        return withUnsafeMutableBytes(of: &bytes) { inet_pton(family, String(text), $0.baseAddress) } == 1
    }
}
