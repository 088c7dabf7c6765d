/// Decides which discovered ListSync services a peer dials, and for which of its documents: a pure
/// function of the browser's events, of the peer's own instance name and of its documents' tags and
/// versions (no sockets, no clock), so that the rules are tested without a network.
///
/// A service is dialed for a document when it is not this peer's own instance, its advertisement carries
/// the document's tag (the same document and secret), its protocol versions overlap the document's, it
/// has an address (IPv4 first), and this peer's instance name sorts before its name, bytewise in UTF-8
/// (one connection per pair and document: the lower name dials, the other only accepts). A lost
/// service's dials are forgotten; when the peer's documents change, every known service is decided again.
struct DiscoveryDialer: Sendable {
    /// What to do about one discovered instance and one document.
    enum Decision: Hashable, Sendable {
        /// Keep `endpoint` connected for `document`, found as the instance `name`.
        case dial(name: String, endpoint: Endpoint, document: Int)
        /// Stop dialing `endpoint` for `document`, the former target of the instance `name`.
        case forget(name: String, endpoint: Endpoint, document: Int)
    }

    /// What the dialer looks for in services for one of the peer's documents.
    struct Document: Hashable, Sendable {
        /// The document's tag.
        let tag: DiscoveryTag
        /// The protocol versions the peer holds it to.
        let versions: ClosedRange<UInt64>

        /// What to look for for the document of `settings`.
        init(settings: SyncSettings) { self.init(tag: DiscoveryTag(settings: settings), versions: settings.versions) }

        /// What to look for for a document of `tag` held to `versions`.
        init(tag: DiscoveryTag, versions: ClosedRange<UInt64> = SyncProtocol.versions) {
            self.tag = tag
            self.versions = versions
        }
    }

    /// Where one instance is dialed.
    struct Target: Hashable, Sendable {
        /// Its endpoint.
        let endpoint: Endpoint
        /// The numbers of the documents dialed there.
        let documents: Set<Int>
    }

    /// This peer's documents, by number.
    private(set) var documents: [Int: Document]
    /// This peer's instance name as currently advertised (a conflict may rename it).
    var ownName: String
    /// Where each instance name is dialed.
    private(set) var targets: [String: Target] = [:]
    /// Each instance found and not lost since, as last seen, to decide again when the documents change.
    /// Bounded as the browser's cache is.
    private var services: [String: DiscoveredService] = [:]

    /// A dialer for a peer advertising `ownName` for `documents`, by number.
    init(ownName: String, documents: [Int: Document]) {
        self.ownName = ownName
        self.documents = documents
    }

    /// What `event` changes: new dials, old ones to forget, both, or nothing.
    mutating func handle(_ event: BrowserEvent) -> [Decision] {
        switch event {
        case .found(let service), .updated(let service):
            services[service.instance.name] = service
            return retarget(service.instance.name)
        case .lost(let service):
            services[service.instance.name] = nil
            return retarget(service.instance.name)
        }
    }

    /// Looks for `documents` from now on, and says what that changes for the services known.
    mutating func setDocuments(_ documents: [Int: Document]) -> [Decision] {
        self.documents = documents
        return services.keys.sorted().flatMap { retarget($0) }
    }

    /// The numbers of this peer's documents that `service` is another peer of, speaking a version this
    /// peer holds the document to.
    func sharedDocuments(with service: DiscoveredService) -> Set<Int> {
        guard service.instance.name != ownName, let advertisement = service.advertisement else { return [] }
        return Set(
            documents.filter {
                advertisement.tags.contains($0.value.tag) && advertisement.versions.overlaps($0.value.versions)
            }
            .keys)
    }

    /// The endpoint to dial for `service`: its first IPv4 address, else its first IPv6 address that is
    /// not link-local (which would need the interface it came on), at its port; nil without either.
    static func endpoint(of service: DiscoveredService) -> Endpoint? {
        let instance = service.instance
        if let address = instance.ipv4Addresses.first { return Endpoint(host: "\(address)", port: instance.port) }
        guard let address = instance.ipv6Addresses.first(where: { !$0.isLinkLocal }) else { return nil }
        return Endpoint(host: "\(address)", port: instance.port)
    }

    /// Decides `name` again, returning the decisions that change its target.
    private mutating func retarget(_ name: String) -> [Decision] {
        let old = targets[name]
        let new = services[name].flatMap { service -> Target? in
            guard Array(ownName.utf8).lexicographicallyPrecedes(name.utf8), let endpoint = Self.endpoint(of: service)
            else { return nil }
            let shared = sharedDocuments(with: service)
            return shared.isEmpty ? nil : Target(endpoint: endpoint, documents: shared)
        }
        guard old != new else { return [] }
        targets[name] = new
        let kept = old?.endpoint == new?.endpoint ? (old?.documents ?? []).intersection(new?.documents ?? []) : []
        let forgotten = old.map { old in
            old.documents.subtracting(kept).sorted().map {
                Decision.forget(name: name, endpoint: old.endpoint, document: $0)
            }
        }
        let dialed = new.map { new in
            new.documents.subtracting(kept).sorted().map {
                Decision.dial(name: name, endpoint: new.endpoint, document: $0)
            }
        }
        return (forgotten ?? []) + (dialed ?? [])
    }
}
