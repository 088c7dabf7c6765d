extension ServiceInstance {
    /// The name of DNS-SD's service type enumeration, `_services._dns-sd._udp.local` (RFC 6763 section 9).
    static let serviceTypeEnumeration = DNSName(
        validated: ["_services", "_dns-sd", "_udp", "local"].map { Array($0.utf8) })
    /// The TTL of records that name a host or hold one in their data (SRV, A, AAAA): 120 seconds, as
    /// RFC 6762 section 10 recommends.
    static let hostRecordTTL: UInt32 = 120
    /// The TTL of the other records (PTR, TXT): 75 minutes (RFC 6762 section 10).
    static let otherRecordTTL: UInt32 = 4500

    /// The records that advertise this instance, in order: the PTR from the service name to the
    /// instance and the PTR that enumerates the service type (shared records, no cache-flush bit), the
    /// instance's SRV and TXT, and the host's A and AAAA records (unique records, with the cache-flush bit).
    var records: [DNSResourceRecord] {
        var records = [
            DNSResourceRecord(name: serviceName, cacheFlush: false, ttl: Self.otherRecordTTL, data: .ptr(instanceName)),
            DNSResourceRecord(
                name: Self.serviceTypeEnumeration, cacheFlush: false, ttl: Self.otherRecordTTL, data: .ptr(serviceName)),
            DNSResourceRecord(
                name: instanceName, cacheFlush: true, ttl: Self.hostRecordTTL,
                data: .srv(priority: 0, weight: 0, port: port, target: host)),
            DNSResourceRecord(
                name: instanceName, cacheFlush: true, ttl: Self.otherRecordTTL, data: .txt(txtRecord.strings)),
        ]
        records += ipv4Addresses.map {
            DNSResourceRecord(name: host, cacheFlush: true, ttl: Self.hostRecordTTL, data: .a($0))
        }
        records += ipv6Addresses.map {
            DNSResourceRecord(name: host, cacheFlush: true, ttl: Self.hostRecordTTL, data: .aaaa($0))
        }
        return records
    }

    /// An unsolicited announcement of this instance (RFC 6762 section 8.3): a response with every one of
    /// ``records`` in its answer section.
    var announcement: DNSMessage { DNSMessage(flags: DNSMessage.responseFlags, answers: records) }
}
