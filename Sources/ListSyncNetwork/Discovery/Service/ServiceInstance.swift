/// One DNS-SD service instance (RFC 6763): the name `<instance>.<service type>.<domain>`, the host and
/// port it listens on, the host's addresses and the instance's TXT record.
struct ServiceInstance: Hashable, Sendable {
    /// ListSync's service type, `_listsync._tcp`.
    static let listSyncServiceType = DNSName(validated: [Array("_listsync".utf8), Array("_tcp".utf8)])
    /// The multicast DNS domain, `local`.
    static let localDomain = DNSName(validated: [Array("local".utf8)])

    /// The instance's label: a user-visible name of 1 to 63 bytes of UTF-8 (RFC 6763 section 4.1.1).
    let name: String
    /// The service type and domain: `_listsync._tcp.local`.
    let serviceName: DNSName
    /// The full name: the instance label, then ``serviceName``.
    let instanceName: DNSName
    /// The host the service runs on: `phone.local`.
    let host: DNSName
    /// The port the service listens on.
    let port: UInt16
    /// The host's IPv4 addresses.
    let ipv4Addresses: [IPv4Address]
    /// The host's IPv6 addresses.
    let ipv6Addresses: [IPv6Address]
    /// The instance's attributes.
    var txtRecord: TXTRecord

    /// The instance `name` of `serviceType` in `domain`, at `host`:`port`.
    /// - Throws: ``DNSNameError`` for an empty `name`, one over 63 bytes, or a full name over 255 bytes.
    init(
        name: String, serviceType: DNSName = listSyncServiceType, domain: DNSName = localDomain, host: DNSName,
        port: UInt16, ipv4Addresses: [IPv4Address] = [], ipv6Addresses: [IPv6Address] = [], txtRecord: TXTRecord
    ) throws(DNSNameError) {
        serviceName = try serviceType.appending(domain)
        instanceName = try DNSName(labels: [Array(name.utf8)]).appending(serviceName)
        self.name = name
        self.host = host
        self.port = port
        self.ipv4Addresses = ipv4Addresses
        self.ipv6Addresses = ipv6Addresses
        self.txtRecord = txtRecord
    }
}

extension ServiceInstance {
    /// This instance named `base (number)`, as after a name conflict (RFC 6762 section 9), with `base`
    /// shortened at a character boundary so that the label stays within 63 bytes.
    /// - Throws: ``DNSNameError`` when even the shortened name does not fit.
    func renamed(_ base: String, number: Int) throws(DNSNameError) -> ServiceInstance {
        let suffix = " (\(number))"
        var prefix = Substring(base)
        while prefix.utf8.count + suffix.utf8.count > DNSName.maximumLabelByteCount, !prefix.isEmpty {
            prefix.removeLast()
        }
        return try ServiceInstance(
            name: String(prefix) + suffix, serviceType: serviceName, domain: .root, host: host, port: port,
            ipv4Addresses: ipv4Addresses,
            ipv6Addresses: ipv6Addresses, txtRecord: txtRecord)
    }
}
