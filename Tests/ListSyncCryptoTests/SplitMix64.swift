/// A seeded SplitMix64 generator, so that randomized tests are reproducible.
struct SplitMix64: RandomNumberGenerator {
    /// The generator state, advanced by the golden-ratio increment on every draw.
    private var state: UInt64

    /// Creates a generator that always produces the same sequence for `seed`.
    init(seed: UInt64) {
        state = seed
    }

    /// Returns the next 64 pseudorandom bits.
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xbf58_476d_1ce4_e5b9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
        return mixed ^ (mixed >> 31)
    }

    /// Returns `count` pseudorandom bytes.
    mutating func bytes(count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &self) }
    }
}
