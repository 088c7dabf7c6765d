/// What a ListSync peer says about itself in its TXT record: the protocol versions it speaks and its
/// document's ``DiscoveryTag``, nothing an outsider can use.
///
/// The record is `txtvers=1` (RFC 6763 section 6.7), `versions=LOW-HIGH` (decimal, as in `versions=5-6`)
/// and `tag=` followed by the tag's 16 hexadecimal digits. Other keys are ignored, for later versions.
struct PeerAdvertisement: Hashable, Sendable {
    /// The version of this TXT record's layout (its `txtvers`) that this implementation reads and writes.
    static let txtVersion = "1"

    /// The protocol versions the peer speaks.
    var versions: ClosedRange<UInt64>
    /// The tag of the peer's document.
    var tag: DiscoveryTag

    /// An advertisement of `tag` for a peer speaking `versions`.
    init(versions: ClosedRange<UInt64>, tag: DiscoveryTag) {
        self.versions = versions
        self.tag = tag
    }

    /// The advertisement of a peer of the document of `settings`, speaking the versions it holds the
    /// document to.
    init(settings: SyncSettings) {
        self.init(versions: settings.versions, tag: DiscoveryTag(settings: settings))
    }

    /// The advertisement in a received TXT record.
    /// - Throws: ``PeerAdvertisementError`` when `txtvers`, `versions` or `tag` is missing or malformed
    ///   (a `txtvers` other than 1 is a layout this implementation does not read).
    init(txtRecord: TXTRecord) throws(PeerAdvertisementError) {
        func value(_ key: String) throws(PeerAdvertisementError) -> [UInt8] {
            guard let entry = txtRecord.entry(forKey: key) else { throw .missingKey(key) }
            guard let value = entry.value else { throw .malformedValue(key: key) }
            return value
        }
        guard try value("txtvers") == Array(Self.txtVersion.utf8) else { throw .malformedValue(key: "txtvers") }
        let bounds = try value("versions").split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
            .map(Self.decimal)
        guard bounds.count == 2, let low = bounds[0], let high = bounds[1], low <= high else {
            throw .malformedValue(key: "versions")
        }
        guard let tag = DiscoveryTag(hex: try value("tag")) else { throw .malformedValue(key: "tag") }
        self.init(versions: low...high, tag: tag)
    }

    /// The TXT record that advertises this.
    var txtRecord: TXTRecord {
        let entries = [
            ("txtvers", Self.txtVersion), ("versions", "\(versions.lowerBound)-\(versions.upperBound)"),
            ("tag", tag.description),
        ]
        do {
            return try TXTRecord(entries.map { TXTRecord.Entry(key: $0.0, value: Array($0.1.utf8)) })
        } catch {
            // Three distinct valid keys, each pair under 60 bytes.
            preconditionFailure("the advertisement's TXT record is invalid: \(error)")
        }
    }

    /// The number `digits` spells in decimal: 1 to 20 ASCII digits that fit in 64 bits; nil otherwise.
    private static func decimal(_ digits: ArraySlice<UInt8>) -> UInt64? {
        guard (1...20).contains(digits.count), digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return UInt64(String(decoding: digits, as: UTF8.self))
    }
}
