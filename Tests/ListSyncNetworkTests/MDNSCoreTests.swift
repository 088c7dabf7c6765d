import Testing

@testable import ListSyncNetwork

/// The core that feeds packets to the responder and the browser: malformed and foreign packets.
struct MDNSCoreTests {
    @Test func malformedPacketsAreCountedAndChangeNothing() throws {
        let kitchen = try ServiceRecordsTests.kitchen()
        var core = MDNSCore(advertising: kitchen, browser: try ServiceBrowser(now: .zero), now: .zero)
        _ = core.poll(now: .zero)
        let packet = try kitchen.announcement.encoded()
        for bad in [[], Array(packet.prefix(20)), [UInt8](repeating: 0xC0, count: 40), packet + [0]] {
            let output = core.receive(packet: bad, sourcePort: 5353, now: .milliseconds(1))
            #expect(output.messages.isEmpty && output.events.isEmpty)
        }
        #expect(core.malformedPackets == 4)
        #expect(core.browser?.cache.records.isEmpty == true)
        #expect(core.responder?.instance.name == kitchen.name)
    }

    @Test func packetsFromAnotherPortAreIgnored() throws {
        let kitchen = try ServiceRecordsTests.kitchen()
        var core = MDNSCore(advertising: nil, browser: try ServiceBrowser(now: .zero), now: .zero)
        let packet = try kitchen.announcement.encoded()
        #expect(core.receive(packet: packet, sourcePort: 40000, now: .zero).events.isEmpty)
        #expect(core.ignoredPackets == 1)
        #expect(core.receive(packet: packet, sourcePort: 5353, now: .zero).events.count == 1)
    }

    @Test func aPeerFindsItselfAndAnswersItsOwnQueries() throws {
        let kitchen = try ServiceRecordsTests.kitchen()
        var core = MDNSCore(advertising: kitchen, browser: try ServiceBrowser(now: .zero), now: .zero)
        var events: [BrowserEvent] = []
        var now = Duration.zero
        // Everything sent is received back, as with IP_MULTICAST_LOOP.
        while now < .seconds(5), let deadline = core.nextDeadline {
            now = max(now, deadline)
            var pending = core.poll(now: now).messages
            events += core.poll(now: now).events
            var rounds = 0
            while !pending.isEmpty, rounds < 10 {
                rounds += 1
                let packet = try pending.removeFirst().encoded()
                let output = core.receive(packet: packet, sourcePort: 5353, now: now)
                pending += output.messages
                events += output.events
            }
        }
        #expect(events == [.found(DiscoveredService(instance: kitchen))])
        #expect(core.stop().first?.answers.allSatisfy { $0.ttl == 0 } == true)
    }
}
