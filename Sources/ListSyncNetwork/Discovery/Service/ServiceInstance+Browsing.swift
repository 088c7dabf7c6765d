extension ServiceInstance {
    /// The instances of `serviceType` in `domain` that `records` describe completely: a PTR from the
    /// service name to the instance, and the instance's SRV; its TXT record (empty if none came) and the
    /// addresses of its host are added. Records with a TTL of 0 (goodbyes) are ignored, as are an instance
    /// whose label is not UTF-8 and, of several SRV or TXT records for one instance, all but the first.
    ///
    /// The instances are in the order of their PTR records, each once.
    /// - Complexity: O(*n* × *a*) for *n* records and at most *a* addresses of one host.
    static func instances(
        in records: some Sequence<DNSResourceRecord>, serviceType: DNSName = listSyncServiceType,
        domain: DNSName = localDomain
    ) -> [ServiceInstance] {
        // A service name over 255 bytes names no instance.
        guard let serviceName = try? serviceType.appending(domain) else { return [] }
        var pointers: [DNSName] = []
        var locations: [DNSName: (port: UInt16, host: DNSName)] = [:]
        var texts: [DNSName: [[UInt8]]] = [:]
        var ipv4: [DNSName: [IPv4Address]] = [:]
        var ipv6: [DNSName: [IPv6Address]] = [:]
        for record in records where record.ttl > 0 && record.recordClass == DNSResourceRecord.internetClass {
            switch record.data {
            case .ptr(let target) where record.name == serviceName && target.parent == serviceName:
                pointers.append(target)
            case .srv(_, _, let port, let host):
                locations[record.name] = locations[record.name] ?? (port, host)
            case .txt(let strings):
                texts[record.name] = texts[record.name] ?? strings
            case .a(let address) where ipv4[record.name, default: []].contains(address) == false:
                ipv4[record.name, default: []].append(address)
            case .aaaa(let address) where ipv6[record.name, default: []].contains(address) == false:
                ipv6[record.name, default: []].append(address)
            default:
                break
            }
        }
        var found: Set<DNSName> = []
        return pointers.compactMap { instanceName in
            guard found.insert(instanceName).inserted, let location = locations[instanceName],
                let label = instanceName.labels.first, let name = String(validating: label, as: UTF8.self)
            else { return nil }
            // Cannot fail: the label and the name came from a decoded (so valid) instance name.
            return try? ServiceInstance(
                name: name, serviceType: serviceType, domain: domain, host: location.host, port: location.port,
                ipv4Addresses: ipv4[location.host] ?? [], ipv6Addresses: ipv6[location.host] ?? [],
                txtRecord: TXTRecord(strings: texts[instanceName] ?? []))
        }
    }
}
