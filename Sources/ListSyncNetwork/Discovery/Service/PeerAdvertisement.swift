/// What a ListSync peer says about itself in its TXT record: the protocol versions it speaks and its
/// documents' ``DiscoveryTag``s, nothing an outsider can use.
///
/// The record is `txtvers=1` (RFC 6763 section 6.7), `versions=LOW-HIGH` (decimal, as in `versions=5-6`),
/// `tag=` followed by the first document's tag in 16 hexadecimal digits, and, for a peer of several
/// documents, `tags=` followed by the others' tags, comma-separated (at most 14: one TXT string holds
/// at most 255 bytes). Other keys are ignored, for later versions.
struct PeerAdvertisement: Hashable, Sendable {
    /// The version of this TXT record's layout (its `txtvers`) that this implementation reads and writes.
    static let txtVersion = "1"
    /// The most tags an advertisement carries: `tag=` and 14 in `tags=` (5 + 14 × 17 - 1 bytes).
    static let maximumTagCount = 15

    /// The protocol versions the peer speaks.
    var versions: ClosedRange<UInt64>
    /// The tags of the peer's documents, the first one's first; at most ``maximumTagCount``. Empty for a
    /// peer that holds no document yet: its record then has no `tag`, so no browser takes it for a peer.
    var tags: [DiscoveryTag]

    /// An advertisement of `tags` (at most ``maximumTagCount`` of them) for a peer speaking `versions`.
    init(versions: ClosedRange<UInt64>, tags: [DiscoveryTag]) {
        precondition(tags.count <= Self.maximumTagCount, "an advertisement carries at most 15 tags")
        self.versions = versions
        self.tags = tags
    }

    /// The advertisement of a peer of `documents` (the first ``maximumTagCount``), speaking
    /// from the lowest version it holds one of them to the highest.
    init(documents: some Collection<SyncSettings>) {
        let advertised = documents.prefix(Self.maximumTagCount)
        let lowest = advertised.map(\.versions.lowerBound).min() ?? SyncProtocol.versions.lowerBound
        let highest = advertised.map(\.versions.upperBound).max() ?? SyncProtocol.versions.upperBound
        self.init(versions: lowest...highest, tags: advertised.map(DiscoveryTag.init(settings:)))
    }

    /// The advertisement in a received TXT record.
    /// - Throws: ``PeerAdvertisementError`` when `txtvers`, `versions` or `tag` is missing or malformed,
    ///   or `tags` is malformed or lists more than 14 (a `txtvers` other than 1 is a layout this
    ///   implementation does not read).
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
        var tags = [tag]
        if txtRecord.entry(forKey: "tags") != nil {
            let others = try value("tags").split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
            guard others.count < Self.maximumTagCount else { throw .malformedValue(key: "tags") }
            for hex in others {
                guard let other = DiscoveryTag(hex: hex) else { throw .malformedValue(key: "tags") }
                tags.append(other)
            }
        }
        self.init(versions: low...high, tags: tags)
    }

    /// The TXT record that advertises this.
    var txtRecord: TXTRecord {
        let others = tags.dropFirst().map(\.description).joined(separator: ",")
        let entries =
            [("txtvers", Self.txtVersion), ("versions", "\(versions.lowerBound)-\(versions.upperBound)")]
            + (tags.first.map { [("tag", $0.description)] } ?? []) + (others.isEmpty ? [] : [("tags", others)])
        do {
            return try TXTRecord(entries.map { TXTRecord.Entry(key: $0.0, value: Array($0.1.utf8)) })
        } catch {
            // Distinct valid keys, each pair under 255 bytes (at most 14 further tags).
            preconditionFailure("the advertisement's TXT record is invalid: \(error)")
        }
    }

    /// The number `digits` spells in decimal: 1 to 20 ASCII digits that fit in 64 bits; nil otherwise.
    private static func decimal(_ digits: ArraySlice<UInt8>) -> UInt64? {
        guard (1...20).contains(digits.count), digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return UInt64(String(decoding: digits, as: UTF8.self))
    }
}
