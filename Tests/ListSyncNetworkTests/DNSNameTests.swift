import Testing

@testable import ListSyncNetwork

/// Names: the limits of RFC 1035, case-insensitive comparison that keeps case, dotted text.
struct DNSNameTests {
    static func label(_ count: Int) -> [UInt8] { Array(repeating: UInt8(ascii: "a"), count: count) }

    @Test func labelsHaveOneTo63Bytes() throws {
        #expect(try DNSName(labels: [Self.label(63)]).labels == [Self.label(63)])
        #expect(throws: DNSNameError.labelTooLong(index: 1, byteCount: 64)) {
            try DNSName(labels: [Self.label(1), Self.label(64)])
        }
        #expect(throws: DNSNameError.emptyLabel(index: 1)) { try DNSName("a..local") }
    }

    @Test func namesTakeAtMost255BytesOnTheWire() throws {
        let longest = [Self.label(63), Self.label(63), Self.label(63), Self.label(61)]
        #expect(try DNSName(labels: longest).wireByteCount == 255)
        #expect(throws: DNSNameError.nameTooLong(byteCount: 256)) {
            try DNSName(labels: [Self.label(63), Self.label(63), Self.label(63), Self.label(62)])
        }
        #expect(throws: DNSNameError.nameTooLong(byteCount: 257)) {
            try DNSName(labels: longest).appending(DNSName("x"))
        }
    }

    @Test func dottedTextSplitsAtDots() throws {
        #expect(try DNSName("_listsync._tcp.local.").labels == ["_listsync", "_tcp", "local"].map { Array($0.utf8) })
        #expect(try DNSName("_listsync._tcp.local") == DNSName("_listsync._tcp.local."))
        #expect(try DNSName("") == .root)
        #expect(try DNSName(".") == .root)
        #expect(try DNSName("a.b.c").parent == DNSName("b.c"))
    }

    @Test func comparisonIgnoresASCIICaseButKeepsIt() throws {
        let upper = try DNSName("Kitchen.LOCAL")
        let lower = try DNSName("kitchen.local")
        #expect(upper == lower)
        #expect(Set([upper, lower]).count == 1)
        #expect(upper.labels == [Array("Kitchen".utf8), Array("LOCAL".utf8)])
        // Only ASCII folds (RFC 4343): É and é are different bytes.
        #expect(try DNSName("\u{C9}.local") != DNSName("\u{E9}.local"))
        #expect(try DNSName("a.local") != DNSName("a.local.x"))
    }

    @Test func descriptionEscapesDotsAndBackslashes() throws {
        let name = try DNSName(labels: [Array("My.List\\1".utf8), Array("local".utf8)])
        #expect(name.description == "My\\.List\\\\1.local")
        #expect(DNSName.root.description == ".")
    }
}
