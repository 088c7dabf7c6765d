/// A contact card with the vCard properties most apps exchange: FN, N, TEL and EMAIL.
///
/// Reads vCard 3.0 (RFC 2426) and 4.0 (RFC 6350), with folded lines, escaped characters and CRLF or LF
/// line ends, and UTF-8 plain text; writes both. Other properties are ignored when reading.
public struct VCard: Hashable, Codable, Sendable {
    /// The structured name (N): family, given, additional names, prefixes, suffixes.
    public struct Name: Hashable, Codable, Sendable {
        /// Family names.
        public var family: String
        /// Given names.
        public var given: String
        /// Additional (middle) names.
        public var additional: String
        /// Honorific prefixes.
        public var prefixes: String
        /// Honorific suffixes.
        public var suffixes: String

        /// Creates a name.
        public init(
            family: String = "", given: String = "", additional: String = "", prefixes: String = "",
            suffixes: String = ""
        ) {
            self.family = family
            self.given = given
            self.additional = additional
            self.prefixes = prefixes
            self.suffixes = suffixes
        }
    }

    /// The formatted name (FN), as displayed.
    public var formattedName: String
    /// The structured name (N), if any.
    public var name: Name?
    /// Telephone numbers (TEL), in order.
    public var phones: [String]
    /// Email addresses (EMAIL), in order.
    public var emails: [String]

    /// Creates a card.
    public init(formattedName: String, name: Name? = nil, phones: [String] = [], emails: [String] = []) {
        self.formattedName = formattedName
        self.name = name
        self.phones = phones
        self.emails = emails
    }

    /// This card with the phones and emails of `other` it lacks added (dropping a number onto a contact).
    public func adding(contactDetailsOf other: VCard) -> VCard {
        var merged = self
        merged.phones += other.phones.filter { !phones.contains($0) }
        merged.emails += other.emails.filter { !emails.contains($0) }
        return merged
    }
}
