/// A service instance a ``ServiceBrowser`` found: the instance (host, port, addresses, TXT) and, when its
/// TXT record is a ListSync advertisement, the tag and versions it carries.
struct DiscoveredService: Hashable, Sendable {
    /// The instance as its records describe it.
    var instance: ServiceInstance
    /// The advertisement in its TXT record, or nil when the record is not a valid one.
    var advertisement: PeerAdvertisement?

    /// The service `instance`, its advertisement read from its TXT record.
    init(instance: ServiceInstance) {
        self.instance = instance
        advertisement = try? PeerAdvertisement(txtRecord: instance.txtRecord)
    }
}

/// What a ``ServiceBrowser`` reports.
enum BrowserEvent: Hashable, Sendable {
    /// An instance appeared (its PTR and SRV are cached).
    case found(DiscoveredService)
    /// A found instance changed: port, host, addresses or TXT.
    case updated(DiscoveredService)
    /// A found instance is gone: its PTR or SRV expired, was evicted or said goodbye. Its last state.
    case lost(DiscoveredService)
}
