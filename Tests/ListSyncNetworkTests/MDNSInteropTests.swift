#if os(Linux)
    import Foundation
    import ListSync
    import Testing

    @testable import ListSyncNetwork

    /// Our responder and browser against avahi-daemon, in two network namespaces joined by a veth pair
    /// (traffic stays in them). Skipped, with the reason, when not root or a tool is missing.
    @Suite(
        .serialized,
        .enabled(if: AvahiNamespace.missingRequirement == nil, "\(AvahiNamespace.missingRequirement ?? "")"))
    struct MDNSInteropTests {
        /// The advertisement both sides use: the documents `groceries` and `chores`.
        static let advertisement = PeerAdvertisement(
            versions: 5...5,
            tags: ["groceries", "chores"].map {
                DiscoveryTag(document: Array($0.utf8), secret: DNSPackets.groceriesSecret)
            })

        /// What a killed test process left (a namespace named after it with a process inside, a bus
        /// directory) is removed by the next set-up: a leftover avahi-daemon kept the next one from
        /// starting.
        @Test func leftoversOfAKilledRunAreRemovedBeforeTheNextOne() throws {
            // A process ID that no longer runs: a child that exited and was reaped.
            let exited = AvahiNamespace()
            var child: pid_t = 0
            var arguments = [strdup("true"), nil]
            defer { free(arguments[0]) }
            #expect(posix_spawnp(&child, "true", nil, nil, &arguments, environ) == 0)
            var status: Int32 = 0
            waitpid(child, &status, 0)
            let stale = "lsavahi\(child)n1"
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("listsync-mdns-\(child)n1")
            defer {
                // Whatever the outcome, nothing stays behind.
                exited.tearDown()
                _ = try? exited.run(["ip", "netns", "del", stale])
                try? FileManager.default.removeItem(at: directory)
            }
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try exited.run(["ip", "netns", "add", stale])
            try exited.start(["ip", "netns", "exec", stale, "sleep", "60"])
            let sleeper = try #require(exited.processes.last)
            try exited.waitFor("the process inside") {
                (try? exited.run(["ip", "netns", "pids", stale]))?.contains("\(sleeper)") == true
            }

            let next = AvahiNamespace()
            defer { next.tearDown() }
            try next.setUp(avahi: false)
            #expect(!(try next.run(["ip", "netns", "list"])).contains(stale))
            #expect(!FileManager.default.fileExists(atPath: directory.path))
            // Killed (SIGKILL), not ended by the test: reaped here, as its parent.
            try exited.waitFor("the process inside killed") { waitpid(sleeper, &status, WNOHANG) == sleeper }
            #expect(status & 0x7F == SIGKILL)
        }

        @Test func avahiSeesOurAdvertisementAndWeFindAvahisAndItsGoodbye() throws {
            let namespace = AvahiNamespace()
            defer { namespace.tearDown() }
            try namespace.setUp()
            let ours = try ServiceInstance(
                name: "ListSync Interop", host: DNSName("lsinterop.local"), port: 7123,
                ipv4Addresses: [IPv4Address(10, 77, 0, 2)], txtRecord: Self.advertisement.txtRecord)
            let events = Locked<[BrowserEvent]>([])
            let runner = try namespace.inPeerNamespace {
                let interfaces = try NetworkInterface.all().filter { $0.carriesMulticastDNS(loopback: false) }
                #expect(interfaces.map(\.name) == ["lspeer0"])
                return try MDNSRunner(advertising: ours, browsing: true, interfaces: interfaces) { event in
                    events.withLock { $0.append(event) }
                }
            }
            defer { runner.stop() }

            // avahi resolves our instance: host, address, port and TXT.
            let tag = Self.advertisement.tags[0].description
            let tags = Self.advertisement.tags[1].description
            var seen = ""
            try namespace.waitFor("avahi-browse resolving our instance", timeout: 15) {
                seen =
                    (try? namespace.run([
                        "ip", "netns", "exec", namespace.avahiSide, "avahi-browse", "-rpt", "_listsync._tcp",
                    ])) ?? ""
                return seen.contains("ListSync\\032Interop") && seen.contains(";7123;")
            }
            print("avahi-browse -rpt _listsync._tcp:\n\(seen)")
            let resolved = try #require(
                seen.split(separator: "\n").first { $0.hasPrefix("=") && $0.contains(";7123;") })
            #expect(resolved.contains(";lsinterop.local;10.77.0.2;7123;"))
            #expect(
                resolved.contains("\"tag=\(tag)\"") && resolved.contains("\"tags=\(tags)\"")
                    && resolved.contains("\"versions=5-5\"")
                    && resolved.contains("\"txtvers=1\""))

            // We find avahi's instance, with its address, port and TXT.
            try namespace.start([
                "ip", "netns", "exec", namespace.avahiSide, "avahi-publish", "-s", "Pantry Mac", "_listsync._tcp",
                "7001",
                "txtvers=1", "versions=5-5", "tag=\(tag)", "tags=\(tags)",
            ])
            try namespace.waitFor("our browser finding avahi's instance", timeout: 15) {
                runner.services.contains { $0.instance.name == "Pantry Mac" }
            }
            let pantry = try #require(runner.services.first { $0.instance.name == "Pantry Mac" })
            print(
                "found: \(pantry.instance.name) at \(pantry.instance.host):\(pantry.instance.port) \(pantry.instance.ipv4Addresses)"
            )
            #expect(pantry.instance.port == 7001)
            #expect(pantry.instance.host == (try DNSName("avahins1.local")))
            try namespace.waitFor("the address of avahi's host") {
                runner.services.first { $0.instance.name == "Pantry Mac" }?.instance.ipv4Addresses == [
                    IPv4Address(10, 77, 0, 1)
                ]
            }
            #expect(pantry.advertisement == Self.advertisement)
            #expect(runner.droppedPackets.malformed == 0)

            // avahi-publish ending says goodbye: the instance is lost (a second after).
            namespace.stopLast()
            try namespace.waitFor("the goodbye of avahi's instance", timeout: 5) {
                events.withLock {
                    $0.contains {
                        if case .lost(let service) = $0 { service.instance.name == "Pantry Mac" } else { false }
                    }
                }
            }

            // Our goodbye: avahi forgets our instance.
            #expect(runner.stop())
            try namespace.waitFor("avahi forgetting our instance", timeout: 10) {
                let now =
                    (try? namespace.run([
                        "ip", "netns", "exec", namespace.avahiSide, "avahi-browse", "-pt", "_listsync._tcp",
                    ])) ?? "?"
                return !now.contains("ListSync\\032Interop")
            }
        }

        @Test func twoPeersShareThePortAndTheLaterOneRenames() throws {
            let namespace = AvahiNamespace()
            defer { namespace.tearDown() }
            try namespace.setUp()
            let runners = Locked<[MDNSRunner]>([])
            defer { for runner in runners.withLock({ $0 }) { runner.stop() } }
            func start(port: UInt16, host: String) throws -> MDNSRunner {
                let instance = try ServiceInstance(
                    name: "Kitchen iPad", host: DNSName(host), port: port, ipv4Addresses: [IPv4Address(10, 77, 0, 2)],
                    txtRecord: Self.advertisement.txtRecord)
                let runner = try namespace.inPeerNamespace {
                    let interfaces = try NetworkInterface.all().filter { $0.carriesMulticastDNS(loopback: false) }
                    return try MDNSRunner(advertising: instance, browsing: true, interfaces: interfaces) { _ in }
                }
                runners.withLock { $0.append(runner) }
                return runner
            }
            // The first announces (and, with loopback on, finds itself); the second then probes the same name.
            let first = try start(port: 7001, host: "one.local")
            try namespace.waitFor("the first peer's announcement") {
                first.services.contains { $0.instance.port == 7001 }
            }
            let second = try start(port: 7002, host: "two.local")
            let names: Set<String> = ["Kitchen iPad", "Kitchen iPad (2)"]
            try namespace.waitFor("the second peer renamed, each finding both", timeout: 15) {
                second.advertised?.name == "Kitchen iPad (2)" && Set(first.services.map(\.instance.name)) == names
                    && Set(second.services.map(\.instance.name)) == names
            }
            #expect(first.advertised?.name == "Kitchen iPad")
            #expect(second.services.first { $0.instance.name == "Kitchen iPad" }?.instance.port == 7001)
            #expect(first.services.first { $0.instance.name == "Kitchen iPad (2)" }?.instance.port == 7002)
            // avahi, across the veth, sees both.
            var seen = ""
            try namespace.waitFor("avahi-browse listing both", timeout: 15) {
                seen =
                    (try? namespace.run([
                        "ip", "netns", "exec", namespace.avahiSide, "avahi-browse", "-rpt", "_listsync._tcp",
                    ]))
                    ?? ""
                return seen.contains(";one.local;10.77.0.2;7001;") && seen.contains(";two.local;10.77.0.2;7002;")
            }
            print("avahi-browse -rpt _listsync._tcp with two peers:\n\(seen)")
        }
    }
#endif
