import Testing

@testable import ListSyncNetwork

/// The responder's schedule and answers (RFC 6762 sections 6-10), on a fake clock: times are passed in.
struct MDNSResponderTests {
    static func milliseconds(_ value: Int) -> Duration { .milliseconds(value) }

    /// A responder that has probed and announced, at 3 s.
    static func running() throws -> MDNSResponder {
        var responder = MDNSResponder(instance: try ServiceRecordsTests.kitchen(), now: .zero)
        for time in [0, 250, 500, 750, 1750] { _ = responder.poll(now: milliseconds(time)) }
        #expect(responder.phase == .running)
        return responder
    }

    /// A query for `name` of `type`, listing `known` as known answers.
    static func query(_ name: DNSName, _ type: DNSRecordType, known: [DNSResourceRecord] = []) -> DNSMessage {
        DNSMessage(questions: [DNSQuestion(name: name, type: type)], answers: known)
    }

    @Test func probesThreeTimes250msApartThenAnnouncesTwice1sApart() throws {
        let instance = try ServiceRecordsTests.kitchen()
        var responder = MDNSResponder(instance: instance, now: .zero)
        var sent: [(Duration, DNSMessage)] = []
        var now = Duration.zero
        while let deadline = responder.nextDeadline, now < .seconds(10) {
            now = deadline
            sent += responder.poll(now: now).map { (now, $0) }
        }
        #expect(sent.map(\.0) == [0, 250, 500, 750, 1750].map(Self.milliseconds))
        for (_, probe) in sent.prefix(3) {
            #expect(!probe.isResponse)
            #expect(probe.questions.map(\.name) == [instance.instanceName])
            #expect(probe.questions.map(\.type) == [.any])
            #expect(probe.authorities.map(\.type) == [.srv, .txt])
        }
        #expect(sent[0].1.questions[0].unicastResponse && !sent[1].1.questions[0].unicastResponse)
        for (_, announcement) in sent.suffix(2) { #expect(announcement == instance.announcement) }
        #expect(responder.phase == .running)
        #expect(responder.poll(now: .seconds(100)).isEmpty)
    }

    @Test func aConflictDuringProbingRenamesAndProbesAgain() throws {
        var responder = MDNSResponder(instance: try ServiceRecordsTests.kitchen(), now: .zero)
        _ = responder.poll(now: .zero)
        let theirs = try ServiceRecordsTests.kitchen(port: 9999)
        // Our own records (a looped-back copy) are no conflict; another port for our name is.
        #expect(responder.receive(try ServiceRecordsTests.kitchen().announcement, now: Self.milliseconds(10)).isEmpty)
        #expect(responder.instance.name == "Kitchen iPad")
        _ = responder.receive(theirs.announcement, now: Self.milliseconds(100))
        #expect(responder.instance.name == "Kitchen iPad (2)")
        #expect(responder.phase == .probing(sent: 0))
        let probe = try #require(responder.poll(now: Self.milliseconds(100)).first)
        #expect(probe.questions.first?.name == responder.instance.instanceName)
        #expect(probe.authorities.allSatisfy { $0.name == responder.instance.instanceName })
    }

    @Test func aConflictAfterAnnouncingProbesAgainAndRenamesIfDefended() throws {
        var responder = try Self.running()
        let theirs = try ServiceRecordsTests.kitchen(port: 9999)
        // Another host's goodbye for our name is no claim; its announcement with another port is.
        let goodbye = ServiceBrowserTests.announcement(theirs, ttl: 0)
        #expect(responder.receive(goodbye, now: .seconds(3)).isEmpty)
        #expect(responder.phase == .running)
        _ = responder.receive(theirs.announcement, now: .seconds(4))
        #expect(responder.instance.name == "Kitchen iPad")
        #expect(responder.phase == .probing(sent: 0))
        #expect(responder.nextDeadline == .seconds(4))
        _ = responder.poll(now: .seconds(4))
        _ = responder.receive(theirs.announcement, now: .milliseconds(4100))
        #expect(responder.instance.name == "Kitchen iPad (2)")
    }

    @Test func aProbeForOurNameIsAnsweredWithinASecondOfTheAnnouncement() throws {
        var responder = try Self.running()
        let theirs = try ServiceRecordsTests.kitchen(port: 9999)
        var probe = Self.query(theirs.instanceName, .any)
        probe.authorities = theirs.records.filter { $0.name == theirs.instanceName }
        // The second announcement went out at 1.75 s: a query at 2.5 s is not answered, a probe is.
        #expect(responder.receive(Self.query(theirs.instanceName, .any), now: .milliseconds(2500)).isEmpty)
        let defence = try #require(responder.receive(probe, now: .milliseconds(2500)).first)
        #expect(defence.answers.map(\.type) == [.srv, .txt])
        #expect(responder.receive(probe, now: .milliseconds(2600)).isEmpty)
    }

    @Test func fifteenConflictsDelayTheNextProbeBy5s() throws {
        var responder = MDNSResponder(instance: try ServiceRecordsTests.kitchen(), now: .zero)
        for count in 1...MDNSResponder.maximumQuickConflicts {
            _ = responder.poll(now: .zero)
            let name = responder.instance.name
            let other = try ServiceInstance(
                name: name, host: ServiceRecordsTests.host, port: 1, txtRecord: TXTRecord([]))
            _ = responder.receive(other.announcement, now: .zero)
            #expect(responder.nextDeadline == (count < 15 ? .zero : .seconds(5)))
        }
        #expect(responder.instance.name == "Kitchen iPad (16)")
    }

    @Test func renamesKeepTheLabelWithin63Bytes() throws {
        let long = String(repeating: "é", count: 31)  // 62 bytes
        let instance = try ServiceInstance(
            name: long, host: ServiceRecordsTests.host, port: 1, txtRecord: TXTRecord([]))
        let renamed = try instance.renamed(long, number: 12)
        #expect(renamed.name == String(repeating: "é", count: 29) + " (12)")
        #expect(renamed.instanceName.parent == instance.instanceName.parent)
    }

    @Test func answersItsRecordsWithAdditionals() throws {
        var responder = try Self.running()
        let instance = responder.instance
        let reply = try #require(
            responder.receive(Self.query(instance.serviceName, .ptr), now: .seconds(3)).first)
        #expect(reply.isResponse)
        #expect(reply.answers == [instance.records[0]])
        #expect(reply.additionals.map(\.type) == [.srv, .txt, .a, .aaaa])
        let srv = try #require(responder.receive(Self.query(instance.instanceName, .srv), now: .seconds(3)).first)
        #expect(srv.answers.map(\.type) == [.srv])
        #expect(srv.additionals.map(\.type) == [.a, .aaaa])
        let host = try #require(responder.receive(Self.query(instance.host, .any), now: .seconds(3)).first)
        #expect(host.answers.map(\.type) == [.a, .aaaa])
        // Not ours: no reply.
        #expect(responder.receive(Self.query(DNSPackets.name("other.local"), .a), now: .seconds(3)).isEmpty)
        // A response is not a question.
        #expect(responder.receive(instance.announcement, now: .seconds(9)).isEmpty)
    }

    @Test func aKnownAnswerWithHalfItsTTLLeftIsNotRepeated() throws {
        var responder = try Self.running()
        let instance = responder.instance
        var ptr = instance.records[0]
        ptr.ttl = 2250  // half of 4500: still known
        let query = Self.query(instance.serviceName, .ptr, known: [ptr])
        #expect(responder.receive(query, now: .seconds(5)).isEmpty)
        ptr.ttl = 2249
        let stale = Self.query(instance.serviceName, .ptr, known: [ptr])
        #expect(responder.receive(stale, now: .seconds(5)).first?.answers == [instance.records[0]])
    }

    @Test func aRecordIsMulticastAtMostOncePerSecond() throws {
        var responder = try Self.running()
        let name = responder.instance.instanceName
        // The second announcement went out at 1.75 s.
        #expect(responder.receive(Self.query(name, .srv), now: Self.milliseconds(2500)).isEmpty)
        #expect(responder.receive(Self.query(name, .srv), now: Self.milliseconds(2750)).count == 1)
        #expect(responder.receive(Self.query(name, .srv), now: Self.milliseconds(3000)).isEmpty)
    }

    /// A new TXT record (the peer's documents changed) is announced again, twice, 1 s apart (RFC 6762
    /// section 8.4); the same record again changes nothing, and one given while probing is the one
    /// announced.
    @Test func aNewTXTRecordIsAnnouncedAgainTwice() throws {
        var responder = try Self.running()
        let changed = try TXTRecord([TXTRecord.Entry(key: "tags", value: Array("0123456789abcdef".utf8))])
        responder.update(txtRecord: changed, now: Self.milliseconds(5000))
        #expect(responder.phase == .announcing(sent: 0) && responder.nextDeadline == Self.milliseconds(5000))
        let first = responder.poll(now: Self.milliseconds(5000))
        #expect(first.count == 1 && first[0].answers.contains { $0.data == .txt(changed.strings) && $0.cacheFlush })
        #expect(responder.poll(now: Self.milliseconds(5500)).isEmpty)
        #expect(responder.poll(now: Self.milliseconds(6000)).count == 1)
        #expect(responder.phase == .running && responder.nextDeadline == nil)
        responder.update(txtRecord: changed, now: Self.milliseconds(7000))
        #expect(responder.nextDeadline == nil)

        var probing = MDNSResponder(instance: try ServiceRecordsTests.kitchen(), now: .zero)
        _ = probing.poll(now: .zero)
        probing.update(txtRecord: changed, now: Self.milliseconds(100))
        #expect(probing.phase == .probing(sent: 1) && probing.nextDeadline == Self.milliseconds(250))
        for time in [250, 500, 750] { _ = probing.poll(now: Self.milliseconds(time)) }
        #expect(probing.instance.records.contains { $0.data == .txt(changed.strings) })
    }

    @Test func stopSaysGoodbyeWithTTL0OnlyAfterAnnouncing() throws {
        var responder = try Self.running()
        let goodbye = try #require(responder.stop().first)
        #expect(goodbye.answers.count == responder.instance.records.count)
        #expect(goodbye.answers.allSatisfy { $0.ttl == 0 })
        #expect(responder.stop().isEmpty)
        #expect(responder.nextDeadline == nil)
        var probing = MDNSResponder(instance: try ServiceRecordsTests.kitchen(), now: .zero)
        _ = probing.poll(now: .zero)
        #expect(probing.stop().isEmpty)
    }
}
