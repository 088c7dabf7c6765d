import Testing

@testable import ListSyncNetwork

/// DNS-SD: an instance's records (RFC 6763 and the TTLs and cache-flush bits of RFC 6762), and the
/// instances found again in received records.
struct ServiceRecordsTests {
    static let host = DNSPackets.name("ipad.local")
    static let serviceName = DNSPackets.name("_listsync._tcp.local")
    static let address6 = IPv6Address(bytes: DNSPackets.bytes(hex: "fe800000000000001c2d3e4f5a6b7c8d"))!

    static func kitchen(port: UInt16 = 7000) throws -> ServiceInstance {
        let tag = DiscoveryTag(document: Array("groceries".utf8), secret: DNSPackets.groceriesSecret)
        return try ServiceInstance(
            name: "Kitchen iPad", host: host, port: port, ipv4Addresses: [IPv4Address(192, 168, 1, 20)],
            ipv6Addresses: [address6], txtRecord: PeerAdvertisement(versions: 5...5, tags: [tag]).txtRecord)
    }

    @Test func anInstanceHasPTRSRVTXTAndAddressRecords() throws {
        let instance = try Self.kitchen()
        let instanceName = Self.serviceName.prepending(label: "Kitchen iPad")
        #expect(instance.instanceName == instanceName)
        let expected: [DNSResourceRecord] = [
            DNSResourceRecord(name: Self.serviceName, cacheFlush: false, ttl: 4500, data: .ptr(instanceName)),
            DNSResourceRecord(
                name: DNSPackets.name("_services._dns-sd._udp.local"), cacheFlush: false, ttl: 4500,
                data: .ptr(Self.serviceName)),
            DNSResourceRecord(
                name: instanceName, cacheFlush: true, ttl: 120,
                data: .srv(priority: 0, weight: 0, port: 7000, target: Self.host)),
            DNSResourceRecord(
                name: instanceName, cacheFlush: true, ttl: 4500,
                data: .txt(["txtvers=1", "versions=5-5", "tag=\(DNSPackets.groceriesTag)"].map { Array($0.utf8) })),
            DNSResourceRecord(name: Self.host, cacheFlush: true, ttl: 120, data: .a(IPv4Address(192, 168, 1, 20))),
            DNSResourceRecord(name: Self.host, cacheFlush: true, ttl: 120, data: .aaaa(Self.address6)),
        ]
        #expect(instance.records == expected)
        #expect(instance.announcement.flags == 0x8400)
        #expect(instance.announcement.answers == expected)
    }

    @Test func instanceNamesFollowTheLimitsOfALabel() throws {
        #expect(throws: DNSNameError.emptyLabel(index: 0)) {
            try ServiceInstance(name: "", host: Self.host, port: 1, txtRecord: TXTRecord([]))
        }
        let long = String(repeating: "é", count: 32)
        #expect(throws: DNSNameError.labelTooLong(index: 0, byteCount: 64)) {
            try ServiceInstance(name: long, host: Self.host, port: 1, txtRecord: TXTRecord([]))
        }
        // Dots and spaces are part of the label (RFC 6763 section 4.3).
        let dotted = try ServiceInstance(name: "Anna's list. v2", host: Self.host, port: 1, txtRecord: TXTRecord([]))
        #expect(dotted.instanceName.labels.count == 4)
    }

    @Test func theInstanceIsFoundAgainInItsAnnouncement() throws {
        let instance = try Self.kitchen()
        let packet = try instance.announcement.encoded()
        let message = try DNSMessage(decoding: packet)
        #expect(ServiceInstance.instances(in: message.answers) == [instance])
    }

    @Test func theDnslibPacketHoldsTheGroceriesPeer() throws {
        let message = try DNSMessage(decoding: DNSPackets.dnslibAnnouncement)
        let found = ServiceInstance.instances(in: message.answers + message.additionals)
        #expect(found == [try Self.kitchen()])
        let advertisement = try PeerAdvertisement(txtRecord: try #require(found.first).txtRecord)
        #expect(advertisement.versions == 5...5)
        let settings = SyncSettings(document: "groceries", secret: DNSPackets.groceriesSecret)
        #expect(advertisement.tags == [DiscoveryTag(settings: settings)])
    }

    @Test func avahisAnnouncementHoldsItsPeerAndItsGoodbyeWithdrawsIt() throws {
        let tag = DiscoveryTag(document: Array("groceries".utf8), secret: DNSPackets.groceriesSecret)
        let address6 = try #require(IPv6Address(bytes: DNSPackets.bytes(hex: "fe80000000000000300083fffea4465d")))
        let pantry = try ServiceInstance(
            name: "Pantry Mac", host: DNSName("avahins1.local"), port: 7001, ipv4Addresses: [IPv4Address(10, 77, 0, 1)],
            ipv6Addresses: [address6], txtRecord: PeerAdvertisement(versions: 5...5, tags: [tag]).txtRecord)
        let announcement = try DNSMessage(decoding: DNSPackets.avahiAnnouncement)
        #expect(ServiceInstance.instances(in: announcement.answers) == [pantry])
        let goodbye = try DNSMessage(decoding: DNSPackets.avahiGoodbye)
        #expect(ServiceInstance.instances(in: goodbye.answers).isEmpty)
    }

    @Test func incompleteWithdrawnAndForeignRecordsAreSkipped() throws {
        let instance = try Self.kitchen()
        let records = instance.records
        let pointer = records[0]
        let location = records[2]
        // Without the SRV, nothing is found; without the TXT, the instance has an empty one.
        #expect(ServiceInstance.instances(in: records.filter { $0.type != .srv }).isEmpty)
        #expect(
            ServiceInstance.instances(in: records.filter { $0.type != .txt }).first?.txtRecord == TXTRecord(strings: [])
        )
        // A goodbye (TTL 0) of the PTR withdraws the instance.
        var goodbye = pointer
        goodbye.ttl = 0
        #expect(ServiceInstance.instances(in: [goodbye] + records.dropFirst()).isEmpty)
        // Another service type, and a PTR of ours to an instance of another type, are not ours.
        let other = try ServiceInstance(
            name: "Printer", serviceType: DNSName("_ipp._tcp"), host: Self.host, port: 631, txtRecord: TXTRecord([]))
        #expect(ServiceInstance.instances(in: other.records).isEmpty)
        #expect(
            try ServiceInstance.instances(in: other.records, serviceType: DNSName("_ipp._tcp")).map(\.name) == [
                "Printer"
            ])
        let stray = DNSResourceRecord(
            name: Self.serviceName, cacheFlush: false, ttl: 4500, data: .ptr(other.instanceName))
        #expect(ServiceInstance.instances(in: [stray] + other.records).isEmpty)
        // A PTR twice, in another case, gives one instance; the first SRV counts.
        var upper = pointer
        upper.data = .ptr(DNSPackets.name("_LISTSYNC._tcp.local").prepending(label: "KITCHEN IPAD"))
        var moved = location
        moved.data = .srv(priority: 0, weight: 0, port: 9, target: Self.host)
        let found = ServiceInstance.instances(in: [pointer, upper] + records.dropFirst() + [moved])
        #expect(found.map(\.port) == [7000])
        // An instance label that is not UTF-8.
        var binary = pointer
        let binaryName = try DNSName(labels: [[0xFF, 0xFE]]).appending(Self.serviceName)
        binary.data = .ptr(binaryName)
        var binaryLocation = location
        binaryLocation.name = binaryName
        #expect(ServiceInstance.instances(in: [binary, binaryLocation]).isEmpty)
    }
}
