import Testing

@testable import ListSyncNetwork

/// The document tag a peer advertises, and the TXT record that carries it with the protocol versions.
struct DiscoveryTagTests {
    static let groceries = DiscoveryTag(document: Array("groceries".utf8), secret: DNSPackets.groceriesSecret)

    /// Computed independently with Python: HKDF-SHA256 (RFC 5869 written out with `hmac`) of the secret
    /// 0...31, no salt, info "ListSync v1 discovery key", 32 bytes; then the first 8 bytes of
    /// `hmac.new(key, b"listsync discovery tag" + b"groceries", hashlib.sha256)`.
    @Test func matchesAnIndependentlyComputedVector() {
        #expect(Self.groceries.description == DNSPackets.groceriesTag)
        #expect(Self.groceries.bytes.count == 8)
    }

    @Test func dependsOnTheSecretAndTheDocument() {
        var otherSecret = DNSPackets.groceriesSecret
        otherSecret[31] ^= 1
        #expect(DiscoveryTag(document: Array("groceries".utf8), secret: otherSecret) != Self.groceries)
        #expect(DiscoveryTag(document: Array("groceries2".utf8), secret: DNSPackets.groceriesSecret) != Self.groceries)
    }

    @Test func parsesSixteenHexDigits() {
        #expect(DiscoveryTag(hex: Array(DNSPackets.groceriesTag.uppercased().utf8)) == Self.groceries)
        for text in ["362115e05088e06", "362115e05088e0670", "362115e05088e06g", "+62115e05088e067", ""] {
            #expect(DiscoveryTag(hex: Array(text.utf8)) == nil, "\(text)")
        }
    }

    @Test func advertisementRoundTripsThroughItsTXTRecord() throws {
        let advertisement = PeerAdvertisement(versions: 5...7, tags: [Self.groceries])
        let strings = advertisement.txtRecord.strings
        #expect(strings == ["txtvers=1", "versions=5-7", "tag=\(DNSPackets.groceriesTag)"].map { Array($0.utf8) })
        #expect(
            try PeerAdvertisement(txtRecord: TXTRecord(strings: strings + [Array("future=x".utf8)])) == advertisement)
    }

    /// A peer of several documents lists the others' tags in `tags=`, at most 14 of them (one TXT string
    /// holds 255 bytes), and advertises the versions from the lowest it holds one to to the highest.
    @Test func anAdvertisementOfSeveralDocumentsListsTheirTags() throws {
        let documents = (0..<20).map { index in
            SyncSettings(
                document: "list \(index)", secret: SyncSettings.test.secret, versions: index == 3 ? 5...6 : 6...7)
        }
        let advertisement = PeerAdvertisement(documents: documents)
        #expect(advertisement.tags == documents.prefix(15).map(DiscoveryTag.init(settings:)))
        #expect(advertisement.versions == 5...7)
        let strings = advertisement.txtRecord.strings
        let others = documents[1..<15].map { DiscoveryTag(settings: $0).description }.joined(separator: ",")
        #expect(strings.last == Array("tags=\(others)".utf8) && strings.allSatisfy { $0.count <= 255 })
        #expect(try PeerAdvertisement(txtRecord: TXTRecord(strings: strings)) == advertisement)
        #expect(PeerAdvertisement(documents: documents.prefix(1)).txtRecord.strings.count == 3)
    }

    /// A peer without documents (a synced library with none open) advertises no tag, so no browser
    /// takes it for a peer of anything.
    @Test func aPeerWithoutDocumentsAdvertisesNoTag() throws {
        let record = PeerAdvertisement(documents: [SyncSettings]()).txtRecord
        let versions = "versions=\(SyncProtocol.versions.lowerBound)-\(SyncProtocol.versions.upperBound)"
        #expect(record.strings == ["txtvers=1", versions].map { Array($0.utf8) })
        #expect(throws: PeerAdvertisementError.missingKey("tag")) { try PeerAdvertisement(txtRecord: record) }
    }

    /// A peer advertises the versions it holds its document to, not all it could speak: a peer held at
    /// 5...6 (to dial earlier releases) says so.
    @Test func theAdvertisementFollowsTheDocumentsVersions() {
        let held = SyncSettings(document: "groceries", secret: SyncSettings.test.secret, versions: 5...6)
        let expected = PeerAdvertisement(versions: 5...6, tags: [DiscoveryTag(settings: held)])
        #expect(PeerAdvertisement(documents: [held]) == expected)
        #expect(PeerAdvertisement(documents: [.test]).versions == SyncProtocol.versions)
    }

    @Test(arguments: [
        (["versions=5-5", "tag=362115e05088e067"], PeerAdvertisementError.missingKey("txtvers")),
        (["txtvers=2", "versions=5-5", "tag=362115e05088e067"], .malformedValue(key: "txtvers")),
        (["txtvers=1", "tag=362115e05088e067"], .missingKey("versions")),
        (["txtvers=1", "versions", "tag=362115e05088e067"], .malformedValue(key: "versions")),
        (["txtvers=1", "versions=5", "tag=362115e05088e067"], .malformedValue(key: "versions")),
        (["txtvers=1", "versions=6-5", "tag=362115e05088e067"], .malformedValue(key: "versions")),
        (["txtvers=1", "versions=+5-6", "tag=362115e05088e067"], .malformedValue(key: "versions")),
        (["txtvers=1", "versions=5-18446744073709551616", "tag=362115e05088e067"], .malformedValue(key: "versions")),
        (["txtvers=1", "versions=5-6-7", "tag=362115e05088e067"], .malformedValue(key: "versions")),
        (["txtvers=1", "versions=5-5"], .missingKey("tag")),
        (["txtvers=1", "versions=5-5", "tag=groceries"], .malformedValue(key: "tag")),
        (["txtvers=1", "versions=5-5", "tag=362115e05088e067", "tags"], .malformedValue(key: "tags")),
        (["txtvers=1", "versions=5-5", "tag=362115e05088e067", "tags="], .malformedValue(key: "tags")),
        (
            ["txtvers=1", "versions=5-5", "tag=362115e05088e067", "tags=362115e05088e067,"],
            .malformedValue(key: "tags")
        ),
        (["txtvers=1", "versions=5-5", "tag=362115e05088e067", "tags=362115e05088e06"], .malformedValue(key: "tags")),
        (
            [
                "txtvers=1", "versions=5-5", "tag=362115e05088e067",
                "tags=" + Array(repeating: "362115e05088e067", count: 15).joined(separator: ","),
            ],
            .malformedValue(key: "tags")
        ),
    ])
    func malformedAdvertisementsAreRefused(strings: [String], expected: PeerAdvertisementError) {
        #expect(throws: expected) {
            try PeerAdvertisement(txtRecord: TXTRecord(strings: strings.map { Array($0.utf8) }))
        }
    }
}
