/// Decides which discovered ListSync services a peer dials: a pure function of the browser's events and
/// of the peer's own instance name, tag and versions (no sockets, no clock), so that the rules are tested
/// without a network.
///
/// A service is dialed when it is not this peer's own instance, its advertisement carries this peer's
/// tag (the same document and secret), its protocol versions overlap this peer's, it has an address
/// (IPv4 first), and this peer's instance name sorts before its name, bytewise in UTF-8 (one connection
/// per pair: the lower name dials, the other only accepts). A lost service's dial target is forgotten.
struct DiscoveryDialer: Sendable {
    /// What to do about one discovered instance.
    enum Decision: Hashable, Sendable {
        /// Keep `endpoint` connected, found as the instance `name`.
        case dial(name: String, endpoint: Endpoint)
        /// Stop dialing `endpoint`, the former target of the instance `name`.
        case forget(name: String, endpoint: Endpoint)
    }

    /// This peer's tag.
    let tag: DiscoveryTag
    /// The protocol versions this peer speaks.
    let versions: ClosedRange<UInt64>
    /// This peer's instance name as currently advertised (a conflict may rename it).
    var ownName: String
    /// The endpoint dialed for each instance name.
    private(set) var targets: [String: Endpoint] = [:]

    /// A dialer for a peer advertising `ownName` with `tag` and `versions`.
    init(ownName: String, tag: DiscoveryTag, versions: ClosedRange<UInt64> = SyncProtocol.versions) {
        self.ownName = ownName
        self.tag = tag
        self.versions = versions
    }

    /// What `event` changes: a new target to dial, an old one to forget, both, or nothing.
    mutating func handle(_ event: BrowserEvent) -> [Decision] {
        switch event {
        case .found(let service), .updated(let service):
            let name = service.instance.name
            let dials = isPeer(service) && Array(ownName.utf8).lexicographicallyPrecedes(name.utf8)
            return retarget(name, to: dials ? Self.endpoint(of: service) : nil)
        case .lost(let service):
            return retarget(service.instance.name, to: nil)
        }
    }

    /// Whether `service` is another peer of this document that speaks a version this peer speaks.
    func isPeer(_ service: DiscoveredService) -> Bool {
        guard service.instance.name != ownName, let advertisement = service.advertisement else { return false }
        return advertisement.tag == tag && advertisement.versions.overlaps(versions)
    }

    /// The endpoint to dial for `service`: its first IPv4 address, else its first IPv6 address that is
    /// not link-local (which would need the interface it came on), at its port; nil without either.
    static func endpoint(of service: DiscoveredService) -> Endpoint? {
        let instance = service.instance
        if let address = instance.ipv4Addresses.first { return Endpoint(host: "\(address)", port: instance.port) }
        guard let address = instance.ipv6Addresses.first(where: { !$0.isLinkLocal }) else { return nil }
        return Endpoint(host: "\(address)", port: instance.port)
    }

    /// Sets the target of `name` to `endpoint`, returning the decisions that change it.
    private mutating func retarget(_ name: String, to endpoint: Endpoint?) -> [Decision] {
        let old = targets[name]
        guard old != endpoint else { return [] }
        targets[name] = endpoint
        return (old.map { [.forget(name: name, endpoint: $0)] } ?? [])
            + (endpoint.map { [.dial(name: name, endpoint: $0)] } ?? [])
    }
}
