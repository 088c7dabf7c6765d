import Foundation
import ListSync
import TestSupport
import Testing

@testable import ListSyncNetwork

/// Random mutations of valid packets (bit flips, random bytes, pointers, counts, cuts, insertions and
/// copies): decoding never traps or hangs, and whatever decodes re-encodes to a packet that decodes to the
/// same message and re-encodes to the same bytes. 300 seeds in `swift test`, 200,000 in the long run
/// (``RunSize``); `LISTSYNC_DNS_FUZZ_SEEDS=N` runs N seeds; `LISTSYNC_DNS_FUZZ_SEED=S` replays one.
struct DNSFuzzTests {
    static let environment = ProcessInfo.processInfo.environment
    static let seeds: [UInt64] =
        environment["LISTSYNC_DNS_FUZZ_SEED"].flatMap { UInt64($0) }.map { [$0] }
        ?? Array(RunSize.seeds("LISTSYNC_DNS_FUZZ_SEEDS", quick: 300, long: 200_000, from: 0xD45_0000))

    /// The packets mutated: from avahi and dnslib, a query, and every message of the round trips encoded.
    static let bases: [[UInt8]] =
        [
            DNSPackets.dnslibAnnouncement, DNSPackets.avahiProbe, DNSPackets.avahiAnnouncement, DNSPackets.avahiGoodbye,
            DNSPackets.unicastQuery,
        ]
        + DNSMessageTests.messages.map { message in
            do { return try message.encoded() } catch { preconditionFailure("\(error)") }
        }

    /// `packet` after one random mutation.
    static func mutate(_ packet: inout [UInt8], rng: inout SplitMix64) {
        let position = packet.isEmpty ? 0 : Int(rng.next() % UInt64(packet.count))
        let random = UInt8(truncatingIfNeeded: rng.next())
        switch rng.next() % 8 {
        case 0 where !packet.isEmpty:
            packet[position] ^= 1 << (random % 8)
        case 1 where !packet.isEmpty:
            packet[position] = random
        case 2 where position + 1 < packet.count:
            // A compression pointer to a random earlier (or later) offset.
            let target = Int(rng.next() % UInt64(packet.count + 4))
            packet[position] = 0xC0 | UInt8(target >> 8 & 0x3F)
            packet[position + 1] = UInt8(target & 0xFF)
        case 3 where packet.count >= 12:
            // A count of the header: small, or huge.
            let field = 4 + 2 * Int(rng.next() % 4)
            let count = rng.next() % 3 == 0 ? UInt16.max : UInt16(rng.next() % 8)
            packet[field] = UInt8(count >> 8)
            packet[field + 1] = UInt8(count & 0xFF)
        case 4:
            packet.removeLast(Int(rng.next() % UInt64(min(packet.count, 16) + 1)))
        case 5:
            packet.insert(
                contentsOf: (0..<rng.next() % 8).map { _ in UInt8(truncatingIfNeeded: rng.next()) }, at: position)
        case 6 where !packet.isEmpty:
            let end = min(packet.count, position + 1 + Int(rng.next() % 24))
            packet.insert(contentsOf: packet[position..<end], at: Int(rng.next() % UInt64(packet.count + 1)))
        default:
            let end = min(packet.count, position + Int(rng.next() % 8))
            packet.removeSubrange(position..<end)
        }
    }

    @Test func mutatedPacketsDecodeOrFailAndReencodeToTheSameMessage() throws {
        var decoded = 0
        for seed in Self.seeds {
            announceSeed(
                seed, of: "DNSFuzzTests",
                replay: "LISTSYNC_DNS_FUZZ_SEED=\(seed) swift test --filter DNSFuzzTests")
            var rng = SplitMix64(seed: seed)
            var packet = Self.bases[Int(rng.next() % UInt64(Self.bases.count))]
            for _ in 0..<(1 + rng.next() % 6) { Self.mutate(&packet, rng: &rng) }
            guard let message = try? DNSMessage(decoding: packet) else { continue }
            decoded += 1
            let bytes: [UInt8]
            do {
                bytes = try message.encoded()
            } catch .messageTooLarge {
                // A packet can point into data that this encoder never compresses against.
                continue
            }
            let again = try DNSMessage(decoding: bytes)
            #expect(again == message, "seed \(seed)")
            #expect(DNSMessageTests.allNames(again).map(\.labels) == DNSMessageTests.allNames(message).map(\.labels))
            #expect(try again.encoded() == bytes, "seed \(seed)")
        }
        // The property is not vacuous: some mutations still decode.
        #expect(Self.seeds.count < 100 || decoded > Self.seeds.count / 20, "\(decoded) of \(Self.seeds.count) decoded")
    }
}
