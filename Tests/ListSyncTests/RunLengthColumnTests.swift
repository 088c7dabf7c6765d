import Testing

@testable import ListSync

/// Run-length columns: runs and literal groups round trip, encode canonically, and other encodings of
/// the same values are rejected.
struct RunLengthColumnTests {
    /// `values` written as a run-length column.
    func encode(_ values: [UInt64]) -> [UInt8] {
        var writer = RunLengthWriter()
        for value in values { writer.append(value) }
        return writer.finish()
    }

    /// The first `count` values of the column `bytes`, which must hold exactly that many.
    func decode(
        _ bytes: [UInt8], count: Int, layout: RunLengthReader.Layout = .groups
    ) throws(BinaryDecodingError) -> [UInt64] {
        try bytes.withUnsafeBufferPointer { buffer throws(BinaryDecodingError) in
            var reader = RunLengthReader(BinaryReader(buffer), layout: layout)
            var values: [UInt64] = []
            for _ in 0..<count { values.append(try reader.next()) }
            try reader.expectEnd()
            return values
        }
    }

    /// A random value of a random width, from one byte to ten as a varint.
    func randomValue(using generator: inout SplitMix64) -> UInt64 {
        let bits = [1, 7, 8, 14, 21, 35, 56, 63, 64].randomElement(using: &generator)!
        return UInt64.random(in: 0...(UInt64.max >> (64 - bits)), using: &generator)
    }

    @Test func groupsAreRunsAndLiterals() throws {
        // A run of three 5s (header 3, zigzag 6), literals 1 and 2 (header -2, zigzag 3), a run of two 3s.
        let bytes = encode([5, 5, 5, 1, 2, 3, 3])
        #expect(bytes == [6, 5, 3, 1, 2, 4, 3])
        #expect(try decode(bytes, count: 7) == [5, 5, 5, 1, 2, 3, 3])
        #expect(encode([]) == [])
        #expect(encode([7]) == [1, 7])
    }

    @Test func randomColumnsRoundTripCanonically() throws {
        var generator = SplitMix64(seed: 21)
        for _ in 0..<2_000 {
            // A few recent values make equal neighbours likely, which must merge into runs.
            var recent: [UInt64] = [randomValue(using: &generator)]
            var values: [UInt64] = []
            for _ in 0..<Int.random(in: 0..<16, using: &generator) {
                let value =
                    Bool.random(using: &generator)
                    ? recent.randomElement(using: &generator)! : randomValue(using: &generator)
                recent.append(value)
                let length =
                    Int.random(in: 0..<10, using: &generator) == 0
                    ? Int.random(in: 60...600, using: &generator) : Int.random(in: 1...3, using: &generator)
                values += repeatElement(value, count: length)
            }
            let bytes = encode(values)
            let decoded = try decode(bytes, count: values.count)
            #expect(decoded == values)
            #expect(encode(decoded) == bytes)
            #expect(throws: BinaryDecodingError.self) { try decode(bytes, count: values.count + 1) }
        }
    }

    @Test func signedValuesRoundTrip() throws {
        let values: [Int64] = [0, -1, 1, .min, .max, .max, -300, 300, 300, 300]
        var writer = RunLengthWriter()
        for value in values { writer.append(signed: value) }
        try writer.finish().withUnsafeBufferPointer { buffer throws(BinaryDecodingError) in
            var reader = RunLengthReader(BinaryReader(buffer), layout: .groups)
            for value in values { #expect(try reader.nextSigned() == value) }
            try reader.expectEnd()
        }
    }

    @Test func nonCanonicalGroupsAreRejected() {
        let cases: [(bytes: [UInt8], count: Int, offset: Int)] = [
            ([0, 5], 1, 0),  // header 0
            ([2, 5], 1, 0),  // a run of length 1
            ([1, 5, 1, 6], 2, 2),  // a literal group directly after a literal group
            ([5, 5, 6, 6], 3, 3),  // equal neighbours inside a literal group
            ([4, 5, 1, 5], 3, 3),  // a literal equal to the run before it
            ([1, 5, 4, 5], 3, 3),  // a run equal to the literal before it
            ([4, 5, 4, 5], 4, 3),  // a run equal to the run before it
        ]
        for (bytes, count, offset) in cases {
            #expect(throws: BinaryDecodingError.notCanonical(offset: offset)) {
                try decode(bytes, count: count)
            }
        }
    }

    @Test func countsAreBounded() {
        // Literal counts cannot exceed the remaining bytes: -5 (zigzag 9) and the largest count, 2^63.
        #expect(throws: BinaryDecodingError.countTooLarge(offset: 0)) { try decode([9, 1, 2], count: 1) }
        let largestLiteralCount: [UInt8] = Array(repeating: 0xFF, count: 9) + [0x01, 7]
        #expect(throws: BinaryDecodingError.countTooLarge(offset: 0)) { try decode(largestLiteralCount, count: 1) }
        // A huge run reads lazily; values the column promises but nobody reads are trailing.
        let largestRun: [UInt8] = [0xFE] + Array(repeating: 0xFF, count: 8) + [0x01, 7]
        #expect(throws: BinaryDecodingError.trailingBytes(offset: 11)) { try decode(largestRun, count: 3) }
    }

    @Test func formatVersion1PairsStillDecode() throws {
        // (length, value) pairs: two 5s, one 6, one 6 again (version 1 did not require merged runs).
        #expect(try decode([2, 5, 1, 6, 1, 6], count: 4, layout: .pairs) == [5, 5, 6, 6])
        #expect(throws: BinaryDecodingError.notCanonical(offset: 0)) { try decode([0, 5], count: 1, layout: .pairs) }
    }
}
