/// The transport-free DNS-SD browser of one service type over mDNS (RFC 6762, RFC 6763): it queries for
/// the type's PTR records, caches the answers with their TTLs and reports instances found, updated and
/// lost.
///
/// No I/O and no clock: the caller passes the time into every call, multicasts the queries
/// ``poll(now:)`` returns, and calls it again at ``nextDeadline``.
///
/// - Queries (section 5.2): at the start, then after 1 s, 2 s, 4 s, ... up to 60 minutes, listing the
///   cached PTRs with more than half their TTL left as known answers (section 7.1). Each cached record is
///   queried again at 80, 85, 90 and 95 % of its TTL (without the 2 % random variation the RFC suggests).
/// - Resolving: an instance without an SRV and a host without addresses are asked for (SRV and TXT, A and
///   AAAA) as soon as they appear, and again with every PTR query.
/// - Bounds: only records about our service type enter the cache (its PTRs, then SRV and TXT of
///   instances whose PTR is cached, then addresses of hosts an SRV names), at most ``maximumInstances``
///   PTRs and ``RecordCache/maximumRecords`` records; a new one past a limit evicts the soonest to expire.
struct ServiceBrowser: Sendable {
    /// The most instances (PTR records) cached.
    static let maximumInstances = 64
    /// The delay before the second query; it doubles after each.
    static let initialQueryInterval = Duration.seconds(1)
    /// The longest delay between queries (RFC 6762 section 5.2).
    static let maximumQueryInterval = Duration.seconds(3600)

    /// The service type browsed: `_listsync._tcp`.
    let serviceType: DNSName
    /// The domain browsed: `local`.
    let domain: DNSName
    /// The type and domain: `_listsync._tcp.local`.
    let serviceName: DNSName
    /// The records received.
    private(set) var cache = RecordCache()
    /// The instances reported as found, by instance name.
    private(set) var services: [DNSName: DiscoveredService] = [:]
    /// When the next PTR query is due.
    private var queryDue: Duration
    /// The delay after the next PTR query.
    private var queryInterval = ServiceBrowser.initialQueryInterval
    /// When a query to resolve new instances or hosts is due, nil when none is.
    private var resolveDue: Duration?

    /// A browser for `serviceType` in `domain` whose first query is due at `now`.
    init(
        serviceType: DNSName = ServiceInstance.listSyncServiceType, domain: DNSName = ServiceInstance.localDomain,
        now: Duration
    ) throws(DNSNameError) {
        serviceName = try serviceType.appending(domain)
        self.serviceType = serviceType
        self.domain = domain
        queryDue = now
    }

    /// When ``poll(now:)`` next has something to do.
    var nextDeadline: Duration { [queryDue, resolveDue, cache.nextDeadline].compactMap { $0 }.min() ?? queryDue }

    /// The queries due at `now`, and the instances lost to records that expired.
    mutating func poll(now: Duration) -> (queries: [DNSMessage], events: [BrowserEvent]) {
        var queries: [DNSMessage] = []
        if now >= queryDue {
            queries.append(ptrQuery(now: now))
            queryDue = now + queryInterval
            queryInterval = min(queryInterval * 2, Self.maximumQueryInterval)
            resolveDue = nil
        } else if let due = resolveDue, now >= due {
            resolveDue = nil
            let questions = unresolvedQuestions()
            if !questions.isEmpty { queries.append(DNSMessage(questions: questions)) }
        }
        let refreshes = cache.dueRefreshes(now: now)
        if !refreshes.isEmpty {
            var questions: [DNSQuestion] = []
            for record in refreshes
            where !questions.contains(where: { $0.name == record.name && $0.type == record.type }) {
                questions.append(DNSQuestion(name: record.name, type: record.type))
            }
            queries.append(DNSMessage(questions: questions))
        }
        let events = cache.removeExpired(now: now) ? updateServices() : []
        return (queries, events)
    }

    /// Caches the records of a received response that are about our service type; returns the changes to
    /// the instances found. Queries are ignored.
    mutating func receive(_ message: DNSMessage, now: Duration) -> [BrowserEvent] {
        guard message.isResponse else { return [] }
        let records = (message.answers + message.additionals).filter {
            $0.recordClass == DNSResourceRecord.internetClass
        }
        var changed = false
        for record in records {
            guard case .ptr(let target) = record.data, record.name == serviceName, target.parent == serviceName
            else { continue }
            if record.ttl > 0, !cache.contains(record),
                cache.count(where: { $0.type == .ptr }) >= Self.maximumInstances
            {
                cache.evict { $0.type == .ptr }
            }
            if cache.insert(record, now: now) { resolveDue = resolveDue ?? now }
            changed = true
        }
        let instances = Set(
            cache.entries.values.compactMap { entry -> DNSName? in
                let record = entry.record
                guard case .ptr(let target) = record.data else { return nil }
                return target
            })
        for record in records where (record.type == .srv || record.type == .txt) && instances.contains(record.name) {
            cache.insert(record, now: now)
            changed = true
        }
        let hosts = Set(
            cache.entries.values.compactMap { entry -> DNSName? in
                let record = entry.record
                guard case .srv(_, _, _, let target) = record.data else { return nil }
                return target
            })
        for record in records where (record.type == .a || record.type == .aaaa) && hosts.contains(record.name) {
            cache.insert(record, now: now)
            changed = true
        }
        return changed ? updateServices() : []
    }

    /// The PTR query, with the cached PTRs that have more than half their TTL left as known answers.
    private func ptrQuery(now: Duration) -> DNSMessage {
        let known = cache.records.compactMap { record -> DNSResourceRecord? in
            guard record.type == .ptr, record.name == serviceName else { return nil }
            let remaining = cache.remainingTTL(of: record, now: now)
            guard remaining > record.ttl / 2 else { return nil }
            var answer = record
            answer.ttl = remaining
            return answer
        }
        return DNSMessage(
            questions: [DNSQuestion(name: serviceName, type: .ptr)] + unresolvedQuestions(), answers: known)
    }

    /// Questions for the SRV and TXT of cached instances without an SRV, and the A and AAAA of hosts
    /// without an address.
    /// - Complexity: O(*n*) for *n* cached records (sets of the names with an SRV and with an address).
    private func unresolvedQuestions() -> [DNSQuestion] {
        let records = cache.records
        var located: Set<DNSName> = []
        var addressed: Set<DNSName> = []
        for record in records {
            if record.type == .srv { located.insert(record.name) }
            if record.type == .a || record.type == .aaaa { addressed.insert(record.name) }
        }
        var questions: [DNSQuestion] = []
        for record in records {
            switch record.data {
            case .ptr(let instance) where !located.contains(instance):
                questions += [DNSQuestion(name: instance, type: .srv), DNSQuestion(name: instance, type: .txt)]
            case .srv(_, _, _, let host) where addressed.insert(host).inserted:
                questions += [DNSQuestion(name: host, type: .a), DNSQuestion(name: host, type: .aaaa)]
            default:
                break
            }
        }
        return questions
    }

    /// Recomputes the instances from the cache; returns what changed.
    private mutating func updateServices() -> [BrowserEvent] {
        let current = ServiceInstance.instances(in: cache.records, serviceType: serviceType, domain: domain)
        var events: [BrowserEvent] = []
        var next: [DNSName: DiscoveredService] = [:]
        for instance in current {
            let service = DiscoveredService(instance: instance)
            next[instance.instanceName] = service
            switch services[instance.instanceName] {
            case nil: events.append(.found(service))
            case let old? where old != service: events.append(.updated(service))
            default: break
            }
        }
        for (name, service) in services where next[name] == nil { events.append(.lost(service)) }
        services = next
        return events
    }
}
