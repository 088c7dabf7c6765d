/// A uniform type identifier naming a data format, such as `public.utf8-plain-text` or `public.vcard`.
public struct TypeIdentifier: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The identifier string.
    public let rawValue: String

    /// Wraps an identifier string.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Wraps an identifier string.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// UTF-8 plain text.
    public static let utf8PlainText = TypeIdentifier("public.utf8-plain-text")
    /// A vCard (RFC 2426 or RFC 6350).
    public static let vCard = TypeIdentifier("public.vcard")

    /// The identifier string.
    public var description: String { rawValue }
}
