/// Discovery in a peer's loop: the ``MDNSRunner`` started once the peer listens, advertising every
/// document's tag, and the dials that a ``DiscoveryDialer`` decides on from its events.
extension PeerLoop {
    /// Starts advertising `port` and browsing, as ``PeerConfiguration/discovery`` asks, unless discovery
    /// is off or already started; the runner passes its events to `events` on its own thread. Logs why
    /// when it cannot start (no multicast interface, port 5353 taken without `SO_REUSEPORT`); the peer
    /// then works without it.
    func startDiscovery(port: UInt16, events: @escaping @Sendable (BrowserEvent) -> Void) {
        guard let discovery = configuration.discovery, discoveryRunner == nil, !isStopping else { return }
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
                    txtRecord: advertisement.txtRecord) : nil
            discoveryRunner = try MDNSRunner(
                advertising: instance, browsing: discovery.browses, interfaces: interfaces, port: discovery.port,
                handler: events)
            discoveryDialer = DiscoveryDialer(ownName: discovery.instanceName, documents: discoveryDocuments)
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
        let decisions = dialer.handle(event)
        discoveryDialer = dialer
        carryOut(decisions, now: now)
    }

    /// Advertises the documents synced now and looks for their peers (after a document was added or
    /// removed), when discovery runs.
    func discoveryDocumentsChanged(now: ContinuousClock.Instant) {
        guard !isStopping, var dialer = discoveryDialer else { return }
        discoveryRunner?.update(txtRecord: advertisement.txtRecord)
        if nodes.count > PeerAdvertisement.maximumTagCount {
            log(
                "discovery: advertising the first \(PeerAdvertisement.maximumTagCount) of \(nodes.count) documents; "
                    + "peers find the others only when this peer's name sorts first")
        }
        let decisions = dialer.setDocuments(discoveryDocuments)
        discoveryDialer = dialer
        carryOut(decisions, now: now)
    }

    /// The advertisement of this peer's documents, in the order they were added (the first
    /// ``PeerAdvertisement/maximumTagCount``).
    private var advertisement: PeerAdvertisement {
        PeerAdvertisement(documents: nodes.sorted { $0.key < $1.key }.map(\.value.settings))
    }

    /// What the dialer looks for: every document.
    private var discoveryDocuments: [Int: DiscoveryDialer.Document] {
        nodes.mapValues { DiscoveryDialer.Document(settings: $0.settings) }
    }

    /// Adds and drops the dials the dialer decided on.
    private func carryOut(_ decisions: [DiscoveryDialer.Decision], now: ContinuousClock.Instant) {
        for decision in decisions {
            switch decision {
            case .dial(let name, let endpoint, let document):
                guard let node = nodes[document] else { continue }
                log("found by mDNS: \"\(name)\" at \(endpoint) for \"\(node.settings.documentName)\"")
                addDial(DialTarget(endpoint: endpoint, document: document), discoveredAs: name, now: now)
            case .forget(let name, let endpoint, let document):
                let target = DialTarget(endpoint: endpoint, document: document)
                guard dials[target]?.discoveredAs == name else { continue }
                dials[target] = nil
                log("lost by mDNS: \"\(name)\" at \(endpoint)")
            }
        }
        wake()
    }
}
