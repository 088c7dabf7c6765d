import Testing

@testable import ListSyncNetwork

/// DNS-SD TXT records (RFC 6763 section 6): the rules for building one, and the lenient reading of
/// received strings.
struct TXTRecordTests {
    typealias Entry = TXTRecord.Entry

    @Test func entriesBecomeKeyValueStrings() throws {
        let record = try TXTRecord([
            Entry(key: "txtvers", value: Array("1".utf8)), Entry(key: "empty", value: []),
            Entry(key: "flag", value: nil),
            Entry(key: "bin", value: [0, 0xFF, UInt8(ascii: "=")]),
        ])
        #expect(
            record.strings == [
                Array("txtvers=1".utf8), Array("empty=".utf8), Array("flag".utf8), Array("bin=".utf8) + [0, 0xFF, 61],
            ])
        #expect(TXTRecord(strings: record.strings) == record)
        #expect(record.entry(forKey: "TXTVERS")?.value == Array("1".utf8))
        #expect(record.entry(forKey: "missing") == nil)
    }

    @Test func anEmptyRecordIsOneEmptyString() throws {
        #expect(try TXTRecord([]).strings == [[]])
        #expect(TXTRecord(strings: [[]]) == (try TXTRecord([])))
    }

    @Test func buildingChecksKeysAndLengths() {
        for key in ["", "a=b", "caf\u{E9}", "tab\t"] {
            #expect(throws: TXTRecordError.invalidKey(key)) { try TXTRecord([Entry(key: key, value: nil)]) }
        }
        #expect(throws: TXTRecordError.duplicateKey("Tag")) {
            try TXTRecord([Entry(key: "tag", value: [1]), Entry(key: "Tag", value: [2])])
        }
        // "k=" and 253 bytes: 255, the most; one more is refused.
        #expect((try? TXTRecord([Entry(key: "k", value: Array(repeating: 1, count: 253))])) != nil)
        #expect(throws: TXTRecordError.entryTooLong(key: "k", byteCount: 256)) {
            try TXTRecord([Entry(key: "k", value: Array(repeating: 1, count: 254))])
        }
    }

    @Test func readingSkipsWhatRFC6763SaysToIgnore() {
        let strings: [[UInt8]] = [
            [], Array("=orphan".utf8), Array("caf".utf8) + [0xC3, 0xA9, 61, 49], Array("a=1".utf8), Array("A=2".utf8),
            Array("b".utf8), Array("c==".utf8),
        ]
        #expect(
            TXTRecord(strings: strings).entries == [
                Entry(key: "a", value: Array("1".utf8)), Entry(key: "b", value: nil),
                Entry(key: "c", value: Array("=".utf8)),
            ])
    }
}
