/// The transport-free mDNS core of a peer: its responder (if it advertises) and its browser (if it
/// browses), fed the packets received on port 5353 and the time; what it returns is multicast.
///
/// Packets that do not decode are dropped and counted, as are responses from a source port other than
/// 5353 (RFC 6762 section 6 says to ignore them) and queries from another port (legacy unicast queries,
/// section 6.7, which would need a unicast reply this core does not give).
struct MDNSCore: Sendable {
    /// The mDNS port.
    static let port: UInt16 = 5353

    /// What a call asks the caller to do.
    struct Output: Sendable {
        /// Messages to multicast, in order.
        var messages: [DNSMessage] = []
        /// Changes to the instances found.
        var events: [BrowserEvent] = []
    }

    /// The responder, nil when not advertising.
    private(set) var responder: MDNSResponder?
    /// The browser, nil when not browsing.
    private(set) var browser: ServiceBrowser?
    /// Packets received that are not DNS messages this codec accepts.
    private(set) var malformedPackets = 0
    /// Well-formed packets dropped: from a port other than 5353.
    private(set) var ignoredPackets = 0

    /// A core that advertises `advertised` (if any) and browses with `browser` (if any).
    init(advertising advertised: ServiceInstance?, browser: ServiceBrowser?, now: Duration) {
        responder = advertised.map { MDNSResponder(instance: $0, now: now) }
        self.browser = browser
    }

    /// When ``poll(now:)`` next has something to do, nil when nothing is scheduled.
    var nextDeadline: Duration? { [responder?.nextDeadline, browser?.nextDeadline].compactMap { $0 }.min() }

    /// The messages and events due at `now`.
    mutating func poll(now: Duration) -> Output {
        var output = Output()
        if let messages = responder?.poll(now: now) { output.messages += messages }
        if let (queries, events) = browser?.poll(now: now) {
            output.messages += queries
            output.events += events
        }
        return output
    }

    /// Handles one received packet, from `sourcePort`.
    mutating func receive(packet: [UInt8], sourcePort: UInt16, now: Duration) -> Output {
        let message: DNSMessage
        do {
            message = try DNSMessage(decoding: packet)
        } catch {
            malformedPackets += 1
            return Output()
        }
        guard sourcePort == Self.port else {
            ignoredPackets += 1
            return Output()
        }
        var output = Output()
        if let messages = responder?.receive(message, now: now) { output.messages += messages }
        if let events = browser?.receive(message, now: now) { output.events += events }
        return output
    }

    /// Advertises `txtRecord` from now on (announced again at the next ``poll(now:)``), when advertising.
    mutating func update(txtRecord: TXTRecord, now: Duration) { responder?.update(txtRecord: txtRecord, now: now) }

    /// Stops advertising: the goodbye to multicast (empty when nothing was announced).
    mutating func stop() -> [DNSMessage] { responder?.stop() ?? [] }
}
