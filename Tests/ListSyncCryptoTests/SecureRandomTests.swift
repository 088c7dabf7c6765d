import ListSyncCrypto
import Testing

/// Random bytes from the operating system.
struct SecureRandomTests {
    @Test(arguments: [0, 1, 16, 32, 1000, 70_000])
    func returnsRequestedCount(count: Int) throws {
        #expect(try SecureRandom.bytes(count: count).count == count)
    }

    @Test
    func twoCallsDiffer() throws {
        #expect(try SecureRandom.bytes(count: 32) != SecureRandom.bytes(count: 32))
    }

    @Test
    func outputIsNotConstant() throws {
        let bytes = try SecureRandom.bytes(count: 4096)
        #expect(Set(bytes).count > 200)
    }
}
