import ListSyncCrypto
import Testing

/// Byte-array equality used for tag checks.
struct ConstantTimeTests {
    @Test
    func equalArraysCompareEqual() {
        #expect(ConstantTime.isEqual([], []))
        #expect(ConstantTime.isEqual([1, 2, 3], [1, 2, 3]))
    }

    @Test(arguments: 0..<16)
    func anyDifferingByteCompareUnequal(index: Int) {
        let original = [UInt8](0..<16)
        var changed = original
        changed[index] ^= 0x80
        #expect(!ConstantTime.isEqual(original, changed))
    }

    @Test
    func differentLengthsCompareUnequal() {
        #expect(!ConstantTime.isEqual([1, 2, 3], [1, 2]))
        #expect(!ConstantTime.isEqual([], [0]))
    }
}
