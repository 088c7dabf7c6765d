/// The eight-word SHA-256 chaining value and the FIPS 180-4 compression function that advances it.
struct SHA256Compression: BlockCompressor, Sendable {
    /// Number of bytes in one SHA-256 input block.
    static let blockByteCount = 64

    /// Chaining words H0...H7.
    private var words: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )

    /// The 64 round constants K0...K63 of FIPS 180-4 section 4.2.2.
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    /// Compresses the 64-byte blocks in `blocks` into the chaining value.
    mutating func compress(_ blocks: UnsafeRawBufferPointer) {
        guard let start = blocks.baseAddress else { return }
        let blockCount = blocks.count / Self.blockByteCount
        Self.roundConstants.withUnsafeBufferPointer { constants in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
                for blockIndex in 0..<blockCount {
                    compressBlock(start + blockIndex &* Self.blockByteCount, schedule: schedule, constants: constants)
                }
            }
        }
    }

    /// Compresses one 64-byte block, using `schedule` (64 words) as scratch space for the message schedule.
    @inline(__always)
    private mutating func compressBlock(
        _ block: UnsafeRawPointer, schedule: UnsafeMutableBufferPointer<UInt32>, constants: UnsafeBufferPointer<UInt32>
    ) {
        for index in 0..<16 {
            schedule[index] = block.loadBigEndianUInt32(at: index &* 4)
        }
        for index in 16..<64 {
            let early = schedule[index &- 15]
            let late = schedule[index &- 2]
            let sigma0 = early.rotatedRight(by: 7) ^ early.rotatedRight(by: 18) ^ (early &>> 3)
            let sigma1 = late.rotatedRight(by: 17) ^ late.rotatedRight(by: 19) ^ (late &>> 10)
            schedule[index] = sigma1 &+ schedule[index &- 7] &+ sigma0 &+ schedule[index &- 16]
        }
        var (a, b, c, d, e, f, g, h) = words
        for index in 0..<64 {
            let sum1 = e.rotatedRight(by: 6) ^ e.rotatedRight(by: 11) ^ e.rotatedRight(by: 25)
            let choice = (e & f) ^ (~e & g)
            let temporary1 = h &+ sum1 &+ choice &+ constants[index] &+ schedule[index]
            let sum0 = a.rotatedRight(by: 2) ^ a.rotatedRight(by: 13) ^ a.rotatedRight(by: 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            h = g
            g = f
            f = e
            e = d &+ temporary1
            d = c
            c = b
            b = a
            a = temporary1 &+ sum0 &+ majority
        }
        words = (
            words.0 &+ a, words.1 &+ b, words.2 &+ c, words.3 &+ d,
            words.4 &+ e, words.5 &+ f, words.6 &+ g, words.7 &+ h
        )
    }

    /// The chaining value as 32 big-endian bytes (the digest once the final block is compressed).
    var bigEndianBytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for word in [words.0, words.1, words.2, words.3, words.4, words.5, words.6, words.7] {
            bytes.appendBigEndian(word)
        }
        return bytes
    }
}
