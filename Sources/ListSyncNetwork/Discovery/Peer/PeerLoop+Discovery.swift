/// Discovery in a peer's loop: the ``MDNSRunner`` started once the peer listens, and the dials that a
/// ``DiscoveryDialer`` decides on from its events.
extension PeerLoop {
    /// Starts advertising `port` and browsing, as ``PeerConfiguration/discovery`` asks, unless discovery
    /// is off or already started; the runner passes its events to `events` on its own thread. Logs why
    /// when it cannot start (no multicast interface, port 5353 taken without `SO_REUSEPORT`); the peer
    /// then works without it.
    func startDiscovery(port: UInt16, events: @escaping @Sendable (BrowserEvent) -> Void) {
        guard let discovery = configuration.discovery, discoveryRunner == nil, !isStopping else { return }
        let tag = DiscoveryTag(settings: configuration.sync)
        let digits = String(UInt32.random(in: 0...UInt32.max, using: &random), radix: 16)
        let hostName = discovery.hostName ?? "listsync-" + String(repeating: "0", count: 8 - digits.count) + digits
        do {
            let interfaces = try NetworkInterface.all().filter { $0.carriesMulticastDNS(loopback: false) }
            let instance =
                discovery.advertises
                ? try ServiceInstance(
                    name: discovery.instanceName,
                    host: DNSName(labels: [Array(hostName.utf8), Array("local".utf8)]), port: port,
                    ipv4Addresses: interfaces.flatMap(\.ipv4Addresses),
                    ipv6Addresses: interfaces.flatMap(\.ipv6Addresses),
                    txtRecord: PeerAdvertisement(settings: configuration.sync).txtRecord) : nil
            discoveryRunner = try MDNSRunner(
                advertising: instance, browsing: discovery.browses, interfaces: interfaces, port: discovery.port,
                handler: events)
            discoveryDialer = DiscoveryDialer(
                ownName: discovery.instanceName, tag: tag, versions: configuration.sync.versions)
            let interfaceNames = interfaces.map(\.name).joined(separator: ", ")
            log(
                "discovery: \(discovery.advertises ? "advertising \"\(discovery.instanceName)\" port \(port)" : "")"
                    + "\(discovery.advertises && discovery.browses ? ", " : "")"
                    + "\(discovery.browses ? "browsing" : "") on \(interfaceNames)")
        } catch {
            log("discovery not started: \(error)")
        }
    }

    /// Dials, or forgets, what a browser event makes the dialer decide.
    func discovered(_ event: BrowserEvent, now: ContinuousClock.Instant) {
        guard !isStopping, var dialer = discoveryDialer else { return }
        if let name = discoveryRunner?.advertised?.name { dialer.ownName = name }
        for decision in dialer.handle(event) {
            switch decision {
            case .dial(let name, let endpoint):
                log("found by mDNS: \"\(name)\" at \(endpoint)")
                // The dialer looks for the tag of configuration.sync: the first document.
                addDial(DialTarget(endpoint: endpoint, document: 0), discoveredAs: name, now: now)
            case .forget(let name, let endpoint):
                let target = DialTarget(endpoint: endpoint, document: 0)
                guard dials[target]?.discoveredAs == name else { continue }
                dials[target] = nil
                log("lost by mDNS: \"\(name)\" at \(endpoint)")
            }
        }
        discoveryDialer = dialer
        wake()
    }
}
