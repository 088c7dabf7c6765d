import Testing

@testable import ListSyncNetwork

/// The browser's queries, cache and events (RFC 6762 sections 5, 7 and 10), on a fake clock.
struct ServiceBrowserTests {
    static let serviceName = ServiceRecordsTests.serviceName

    static func browser() throws -> ServiceBrowser { try ServiceBrowser(now: .zero) }

    /// The announcement of `instance`, with its records' TTLs replaced by `ttl` when given.
    static func announcement(_ instance: ServiceInstance, ttl: UInt32? = nil) -> DNSMessage {
        var message = instance.announcement
        if let ttl {
            message.answers = message.answers.map {
                DNSResourceRecord(name: $0.name, cacheFlush: $0.cacheFlush, ttl: ttl, data: $0.data)
            }
        }
        return message
    }

    /// An instance `name` on its own host, port and address.
    static func instance(_ number: Int) throws -> ServiceInstance {
        try ServiceInstance(
            name: "peer \(number)", host: DNSName("host\(number).local"), port: UInt16(7000 + number % 300),
            ipv4Addresses: [
                IPv4Address(10, UInt8(number >> 16 & 0xFF), UInt8(number >> 8 & 0xFF), UInt8(number & 0xFF))
            ],
            txtRecord: TXTRecord([]))
    }

    @Test func queriesBackOffFrom1sDoublingTo60Minutes() throws {
        var browser = try Self.browser()
        var times: [Duration] = []
        var now = Duration.zero
        while now < .seconds(5 * 3600) {
            now = browser.nextDeadline
            let (queries, _) = browser.poll(now: now)
            if !queries.isEmpty { times.append(now) }
            #expect(queries.allSatisfy { $0.questions == [DNSQuestion(name: Self.serviceName, type: .ptr)] })
        }
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        #expect(times.first == .zero)
        #expect(gaps.prefix(12) == (0..<12).map { Duration.seconds(1 << $0) }[...])
        #expect(gaps.dropFirst(12).allSatisfy { $0 == .seconds(3600) })
    }

    @Test func findsResolvesUpdatesAndLosesAnInstance() throws {
        var browser = try Self.browser()
        let kitchen = try ServiceRecordsTests.kitchen()
        let found = browser.receive(kitchen.announcement, now: .seconds(1))
        #expect(found == [.found(DiscoveredService(instance: kitchen))])
        let advertisement = try #require(DiscoveredService(instance: kitchen).advertisement)
        #expect(advertisement.versions == 5...5)
        #expect(advertisement.tags[0].description == DNSPackets.groceriesTag)
        // The same announcement again changes nothing; a new port is an update.
        #expect(browser.receive(kitchen.announcement, now: .seconds(2)).isEmpty)
        let moved = try ServiceRecordsTests.kitchen(port: 7100)
        #expect(browser.receive(moved.announcement, now: .seconds(3)) == [.updated(DiscoveredService(instance: moved))])
        // The SRV of 7000, last received a second before the cache-flush SRV of 7100, goes a second later.
        _ = browser.poll(now: .seconds(4))
        #expect(browser.cache.records.filter { $0.type == .srv }.count == 1)
        // The SRV's 120 s run out (no refresh answered): lost.
        var events: [BrowserEvent] = []
        var now = Duration.seconds(4)
        while events.isEmpty, now < .seconds(200) {
            now = browser.nextDeadline
            events += browser.poll(now: now).events
        }
        #expect(events == [.lost(DiscoveredService(instance: moved))])
        #expect(now == .seconds(123))
    }

    @Test func aPTRAloneIsResolvedByQueries() throws {
        var browser = try Self.browser()
        _ = browser.poll(now: .zero)
        let kitchen = try ServiceRecordsTests.kitchen()
        let ptr = DNSMessage(flags: DNSMessage.responseFlags, answers: [kitchen.records[0]])
        #expect(browser.receive(ptr, now: .milliseconds(100)).isEmpty)
        let (queries, _) = browser.poll(now: .milliseconds(100))
        #expect(queries.first?.questions.map(\.type) == [.srv, .txt])
        #expect(queries.first?.questions.allSatisfy { $0.name == kitchen.instanceName } == true)
        let srv = DNSMessage(flags: DNSMessage.responseFlags, answers: [kitchen.records[2], kitchen.records[3]])
        let events = browser.receive(srv, now: .milliseconds(200))
        #expect(events.count == 1)
        let (hostQueries, _) = browser.poll(now: .seconds(1))
        #expect(hostQueries.first?.questions.suffix(2).map(\.type) == [.a, .aaaa])
        #expect(hostQueries.first?.questions.last?.name == kitchen.host)
    }

    @Test func eachUnresolvedInstanceAndHostIsAskedForOnce() throws {
        var browser = try Self.browser()
        _ = browser.poll(now: .zero)
        // Peers 0-9: a PTR alone. Peers 10-19: PTR and SRV, all on one host without an address. Peer 20:
        // complete. Peers 21-29: PTR, SRV and address, each on its own host.
        var answers: [DNSResourceRecord] = []
        for number in 0..<30 {
            let instance = try Self.instance(number)
            switch number {
            case ..<10: answers.append(instance.records[0])
            case ..<20:
                answers += [
                    instance.records[0],
                    DNSResourceRecord(
                        name: instance.instanceName, cacheFlush: true, ttl: 120,
                        data: .srv(priority: 0, weight: 0, port: instance.port, target: try DNSName("shared.local"))),
                ]
            default: answers += Self.announcement(instance).answers
            }
        }
        _ = browser.receive(DNSMessage(flags: DNSMessage.responseFlags, answers: answers), now: .milliseconds(100))
        let questions = try #require(browser.poll(now: .milliseconds(100)).queries.first).questions
        let instances = try (0..<10).map { try Self.instance($0).instanceName }
        let expected =
            instances.flatMap { [DNSQuestion(name: $0, type: .srv), DNSQuestion(name: $0, type: .txt)] } + [
                DNSQuestion(name: try DNSName("shared.local"), type: .a),
                DNSQuestion(name: try DNSName("shared.local"), type: .aaaa),
            ]
        #expect(questions.count == expected.count)
        #expect(Set(questions) == Set(expected))
    }

    @Test func theQueryListsKnownAnswersWithHalfTheirTTLLeft() throws {
        var browser = try Self.browser()
        _ = browser.poll(now: .zero)
        let kitchen = try ServiceRecordsTests.kitchen()
        _ = browser.receive(Self.announcement(kitchen, ttl: 10), now: .zero)
        // At 1 s, 9 s of 10 are left: known. At 7 s (the query after 1 + 2 + 4), 3 s are: not listed.
        let first = try #require(browser.poll(now: .seconds(1)).queries.first)
        #expect(first.answers.count == 1)
        #expect(first.answers.first?.ttl == 9)
        #expect(first.answers.first?.data == kitchen.records[0].data)
        _ = browser.poll(now: .seconds(3))
        let later = try #require(browser.poll(now: .seconds(7)).queries.first { $0.questions.first?.type == .ptr })
        #expect(later.answers.isEmpty)
    }

    @Test func recordsAreRefreshedAt80To95PercentOfTheirTTL() throws {
        var browser = try Self.browser()
        _ = browser.poll(now: .zero)
        _ = browser.receive(Self.announcement(try ServiceRecordsTests.kitchen(), ttl: 100), now: .zero)
        var refreshes: [Duration] = []
        var now = Duration.zero
        while now < .seconds(100) {
            now = browser.nextDeadline
            let (queries, _) = browser.poll(now: now)
            // The PTR queries (at 0, 1, 3, 7, ... s) ask for no SRV: the instance is resolved.
            if queries.contains(where: { $0.questions.contains { $0.type == .srv } }) {
                refreshes.append(now)
            }
        }
        #expect(refreshes == [80, 85, 90, 95].map { Duration.seconds($0) })
    }

    @Test func aGoodbyeRemovesTheInstanceAfterOneSecond() throws {
        var browser = try Self.browser()
        let kitchen = try ServiceRecordsTests.kitchen()
        _ = browser.receive(kitchen.announcement, now: .zero)
        #expect(browser.receive(Self.announcement(kitchen, ttl: 0), now: .seconds(10)).isEmpty)
        #expect(browser.poll(now: .milliseconds(10_999)).events.isEmpty)
        #expect(browser.poll(now: .seconds(11)).events == [.lost(DiscoveredService(instance: kitchen))])
        #expect(browser.cache.records.isEmpty)
    }

    @Test func aFloodOfAnnouncementsIsBounded() throws {
        var browser = try Self.browser()
        var found = 0
        var lost = 0
        for number in 0..<300 {
            let instance = try Self.instance(number)
            // Each a little longer-lived than the last, so the oldest are evicted first.
            for event in browser.receive(Self.announcement(instance, ttl: UInt32(1000 + number)), now: .zero) {
                if case .found = event { found += 1 }
                if case .lost = event { lost += 1 }
            }
            #expect(browser.cache.entries.count <= RecordCache.maximumRecords)
            #expect(browser.services.count <= ServiceBrowser.maximumInstances)
        }
        #expect(found == 300)
        #expect(lost == 300 - ServiceBrowser.maximumInstances)
        #expect(browser.cache.evictions > 0)
        let kept = Set(browser.services.values.map(\.instance.name))
        #expect(kept == Set((300 - ServiceBrowser.maximumInstances..<300).map { "peer \($0)" }))
    }

    @Test func recordsOfOtherServicesAndHostsStayOut() throws {
        var browser = try Self.browser()
        let other = try ServiceInstance(
            name: "printer", serviceType: DNSName("_ipp._tcp"), host: DNSName("printer.local"), port: 631,
            ipv4Addresses: [IPv4Address(10, 0, 0, 9)], txtRecord: TXTRecord([]))
        var message = other.announcement
        // A stray SRV and A for a name we never saw a PTR for, among our records.
        message.answers += [try ServiceRecordsTests.kitchen().records[2], try ServiceRecordsTests.kitchen().records[4]]
        #expect(browser.receive(message, now: .zero).isEmpty)
        #expect(browser.cache.records.isEmpty)
    }
}
