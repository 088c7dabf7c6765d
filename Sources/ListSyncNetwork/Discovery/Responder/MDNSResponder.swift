/// The transport-free mDNS responder of one ``ServiceInstance`` (RFC 6762): it probes for the instance's
/// name, announces the instance, answers queries for its records and says goodbye when stopped.
///
/// No I/O and no clock: the caller passes the time (any monotonic origin) into every call, sends the
/// messages it returns to the mDNS group, and calls ``poll(now:)`` again at ``nextDeadline``.
///
/// - Probing (section 8.1): three queries for the instance name, 250 ms apart, with our SRV and TXT in
///   the authority section. A response during probing that holds a record of the instance name with other
///   data is a conflict: the instance is renamed `Name (2)`, `Name (3)`, ... and probing starts again
///   (after a second once ``maximumQuickConflicts`` conflicts came, section 8.1's rate limit). The
///   simultaneous-probe tie-break of section 8.2 is not done: two ListSync peers that probe the same name
///   in the same 750 ms both keep it (they advertise it with different data, which the first later query
///   shows as a conflict to neither; names carry the device's name, so this needs two devices named alike
///   started together). A conflicting response after probing (section 9) makes the responder probe its
///   name again, renaming if the other host defends it; a probe for our records is answered even within a
///   second of their last multicast (250 ms apart at most), so that our defence reaches the prober.
///   The host name is the caller's to choose and is not probed.
/// - Announcing (section 8.3): every record, twice, 1 s apart.
/// - Answering (section 6): questions for our PTR, SRV, TXT, A, AAAA (or ANY) of class IN or ANY are
///   answered by multicast, with the additional records of RFC 6763 section 12; a record the query lists as
///   a known answer with at least half our TTL left is left out (section 7.1); a record multicast less than
///   a second ago (250 ms for a probe) is not sent again (section 6.2). Queries are answered at once, without the 20-120 ms delay
///   section 6 advises for shared records, and the QU bit gets a multicast reply (which 5.4 allows).
/// - Updating (section 8.4): a new TXT record is announced again, twice, 1 s apart (with the cache-flush
///   bit, so browsers replace the old one); during probing it is simply the one announced.
/// - Stopping (section 10.1): one message with every record at TTL 0.
struct MDNSResponder: Sendable {
    /// Delay between probes (RFC 6762 section 8.1).
    static let probeInterval = Duration.milliseconds(250)
    /// Probes sent before the name is ours.
    static let probeCount = 3
    /// Delay between the two announcements (section 8.3).
    static let announceInterval = Duration.seconds(1)
    /// Announcements sent.
    static let announceCount = 2
    /// The shortest time between two multicasts of one record (section 6.2).
    static let multicastInterval = Duration.seconds(1)
    /// Conflicts after which probing waits ``conflictDelay`` before starting again (section 8.1 says 15
    /// in 10 s, then 5 s; counted here since the last successful probe).
    static let maximumQuickConflicts = 15
    /// The wait before probing again after ``maximumQuickConflicts`` conflicts.
    static let conflictDelay = Duration.seconds(5)
    /// Renames tried before the responder gives up and stops (a network that claims every name).
    static let maximumRenames = 1000

    /// Where the responder is.
    enum Phase: Hashable, Sendable {
        /// Sending probe number `sent + 1` at the deadline.
        case probing(sent: Int)
        /// Sending announcement number `sent + 1` at the deadline.
        case announcing(sent: Int)
        /// Answering queries.
        case running
        /// Stopped: the goodbye was sent, or the renames ran out.
        case stopped
    }

    /// The instance as currently named (renamed after a conflict).
    private(set) var instance: ServiceInstance
    /// The phase.
    private(set) var phase: Phase = .probing(sent: 0)
    /// When the next probe or announcement is due, nil when none is.
    private(set) var nextDeadline: Duration?
    /// Conflicts seen since the name was last won, and renames in all.
    private(set) var conflicts = 0
    /// Renames since the start.
    private(set) var renames = 0
    /// The name the caller gave, which renames number.
    private let baseName: String
    /// When each record (by its index in `instance.records`) was last multicast.
    private var lastMulticast: [Int: Duration] = [:]

    /// A responder for `instance` whose first probe is due at `now`.
    init(instance: ServiceInstance, now: Duration) {
        self.instance = instance
        baseName = instance.name
        nextDeadline = now
    }

    /// The messages due at `now`: a probe or an announcement when one is; none otherwise.
    mutating func poll(now: Duration) -> [DNSMessage] {
        guard let deadline = nextDeadline, now >= deadline else { return [] }
        switch phase {
        case .probing(let sent) where sent < Self.probeCount:
            phase = .probing(sent: sent + 1)
            nextDeadline = now + Self.probeInterval
            return [probe(unicastResponse: sent == 0)]
        case .probing:
            conflicts = 0
            phase = .announcing(sent: 0)
            return poll(now: now)
        case .announcing(let sent):
            phase = sent + 1 < Self.announceCount ? .announcing(sent: sent + 1) : .running
            nextDeadline = sent + 1 < Self.announceCount ? now + Self.announceInterval : nil
            let records = instance.records
            for index in records.indices { lastMulticast[index] = now }
            return [DNSMessage(flags: DNSMessage.responseFlags, answers: records)]
        case .running, .stopped:
            nextDeadline = nil
            return []
        }
    }

    /// Handles a received message: a conflicting response during probing renames the instance; a query
    /// while running is answered. Returns the messages to multicast.
    mutating func receive(_ message: DNSMessage, now: Duration) -> [DNSMessage] {
        switch phase {
        case .probing:
            if message.isResponse, message.answers.contains(where: conflicts(with:)) { rename(now: now) }
            return []
        case .running, .announcing:
            guard !message.isResponse else {
                // Another host claims our name after we took it: probe for it again (RFC 6762 section
                // 9), and rename if that host defends it.
                if message.answers.contains(where: conflicts(with:)) {
                    conflicts += 1
                    phase = .probing(sent: 0)
                    nextDeadline = now
                }
                return []
            }
            return answer(message, now: now).map { [$0] } ?? []
        case .stopped:
            return []
        }
    }

    /// Advertises `txtRecord` from now on: once the instance was announced, announces it again from `now`
    /// (RFC 6762 section 8.4). Does nothing when the record is the same or the responder stopped.
    mutating func update(txtRecord: TXTRecord, now: Duration) {
        guard txtRecord != instance.txtRecord, phase != .stopped else { return }
        instance.txtRecord = txtRecord
        lastMulticast = [:]
        switch phase {
        case .announcing, .running:
            phase = .announcing(sent: 0)
            nextDeadline = now
        case .probing, .stopped:
            break
        }
    }

    /// Stops: the goodbye (every record with TTL 0) if the instance was announced, else nothing.
    mutating func stop() -> [DNSMessage] {
        defer {
            phase = .stopped
            nextDeadline = nil
        }
        switch phase {
        case .announcing, .running:
            let goodbyes = instance.records.map { record in
                var record = record
                record.ttl = 0
                return record
            }
            return [DNSMessage(flags: DNSMessage.responseFlags, answers: goodbyes)]
        case .probing, .stopped:
            return []
        }
    }

    /// A probe: a query for the instance name (ANY), our SRV and TXT proposed in the authority section.
    private func probe(unicastResponse: Bool) -> DNSMessage {
        DNSMessage(
            questions: [DNSQuestion(name: instance.instanceName, type: .any, unicastResponse: unicastResponse)],
            authorities: instance.records.filter { $0.name == instance.instanceName })
    }

    /// Whether `record` claims the instance name with data other than ours.
    private func conflicts(with record: DNSResourceRecord) -> Bool {
        guard record.name == instance.instanceName, record.ttl > 0 else { return false }
        return !instance.records.contains { $0.name == record.name && $0.data == record.data }
    }

    /// Takes the next name after a conflict and probes again.
    private mutating func rename(now: Duration) {
        conflicts += 1
        renames += 1
        guard renames <= Self.maximumRenames, let renamed = try? instance.renamed(baseName, number: renames + 1)
        else {
            phase = .stopped
            nextDeadline = nil
            return
        }
        instance = renamed
        phase = .probing(sent: 0)
        nextDeadline = conflicts >= Self.maximumQuickConflicts ? now + Self.conflictDelay : now
    }

    /// The response to `query`, or nil when it asks for none of our records (or all are suppressed).
    private mutating func answer(_ query: DNSMessage, now: Duration) -> DNSMessage? {
        let records = instance.records
        var answers: Set<Int> = []
        for question in query.questions
        where question.recordClass == DNSResourceRecord.internetClass || question.recordClass == 255 {
            for (index, record) in records.enumerated()
            where record.name == question.name && (question.type == .any || question.type == record.type) {
                answers.insert(index)
            }
        }
        // A probe (proposed records in the authority section) is answered within 250 ms, not 1 s, so
        // that a prober hears our defence before it takes the name (sections 6.2 and 8.1).
        let interval = query.authorities.isEmpty ? Self.multicastInterval : Self.probeInterval
        answers = answers.filter { index in
            !Self.isKnown(records[index], in: query.answers)
                && lastMulticast[index].map { now - $0 >= interval } ?? true
        }
        guard !answers.isEmpty else { return nil }
        let additionals = Set(answers.flatMap { Self.additionals(of: records[$0], in: records) }).subtracting(answers)
            .filter { !Self.isKnown(records[$0], in: query.answers) }
        for index in answers { lastMulticast[index] = now }
        return DNSMessage(
            flags: DNSMessage.responseFlags, answers: answers.sorted().map { records[$0] },
            additionals: additionals.sorted().map { records[$0] })
    }

    /// Whether `known` lists `record` with at least half its TTL (known-answer suppression, section 7.1).
    private static func isKnown(_ record: DNSResourceRecord, in known: [DNSResourceRecord]) -> Bool {
        known.contains { $0.name == record.name && $0.data == record.data && $0.ttl >= record.ttl / 2 }
    }

    /// The indices in `records` of the records to add to an answer of `record` (RFC 6763 section 12): for
    /// a PTR to an instance its SRV, TXT and addresses, for an SRV the addresses of its target.
    private static func additionals(of record: DNSResourceRecord, in records: [DNSResourceRecord]) -> [Int] {
        let names: [DNSName]
        switch record.data {
        case .ptr(let instanceName): names = [instanceName] + srvTargets(of: instanceName, in: records)
        case .srv(_, _, _, let target): names = [target]
        default: return []
        }
        return records.indices.filter { names.contains(records[$0].name) && records[$0].type != .ptr }
    }

    /// The SRV targets of `name` in `records`.
    private static func srvTargets(of name: DNSName, in records: [DNSResourceRecord]) -> [DNSName] {
        records.compactMap { record in
            guard record.name == name, case .srv(_, _, _, let target) = record.data else { return nil }
            return target
        }
    }
}
