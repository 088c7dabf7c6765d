/// A bounded cache of received mDNS records (RFC 6762 section 10): each kept until its TTL runs out,
/// refreshed by queries at 80, 85, 90 and 95 % of it (section 5.2), removed a second after a goodbye
/// (TTL 0, section 10.1) or after a cache-flush record of its name and type replaced it (section 10.2).
///
/// At most ``maximumRecords`` entries: a new record when the cache is full evicts the one that expires
/// soonest, so that a flood of records costs bounded memory (about 9 KB per record at worst, the largest
/// packet) and the newest information wins.
struct RecordCache: Sendable {
    /// The most records kept.
    static let maximumRecords = 512
    /// How long a record stays after its goodbye or its replacement by a cache-flush record.
    static let removalDelay = Duration.seconds(1)
    /// The refresh queries, in percent of the TTL.
    static let refreshPercents: [Int64] = [80, 85, 90, 95]

    /// What identifies a cached record: its name and its data (which includes the type); the class is
    /// always IN here.
    struct Key: Hashable, Sendable {
        /// The owner name.
        var name: DNSName
        /// The data.
        var data: DNSRecordData
    }

    /// One cached record.
    struct Entry: Hashable, Sendable {
        /// The record as last received (its TTL that of the last refresh, never 0).
        var record: DNSResourceRecord
        /// When it was last received.
        var received: Duration
        /// When it is removed.
        var expires: Duration
        /// Refresh queries sent since it was received (all of them once it is being removed).
        var refreshesSent: Int
        /// Insertion order, so that records come out in the order they first arrived.
        var sequence: UInt64
    }

    /// The entries.
    private(set) var entries: [Key: Entry] = [:]
    /// Records evicted to make room since the cache was made.
    private(set) var evictions = 0
    /// The next insertion's sequence number.
    private var nextSequence: UInt64 = 0

    /// The cached records, the one that first arrived last first (so that of two records of one name and
    /// type, such as an SRV and the cache-flush SRV replacing it, the newer comes first).
    var records: [DNSResourceRecord] { entries.values.sorted { $0.sequence > $1.sequence }.map(\.record) }

    /// The number of cached records for which `isIncluded` holds.
    func count(where isIncluded: (DNSResourceRecord) -> Bool) -> Int {
        entries.values.reduce(0) { $0 + (isIncluded($1.record) ? 1 : 0) }
    }

    /// Whether a record with this name and data is cached.
    func contains(_ record: DNSResourceRecord) -> Bool { entries[Key(name: record.name, data: record.data)] != nil }

    /// Adds or refreshes `record` received at `now`; a goodbye (TTL 0) schedules the removal of the record
    /// it names. Returns whether the record is new.
    @discardableResult
    mutating func insert(_ record: DNSResourceRecord, now: Duration) -> Bool {
        let key = Key(name: record.name, data: record.data)
        guard record.ttl > 0 else {
            if var entry = entries[key] {
                entry.expires = min(entry.expires, now + Self.removalDelay)
                entry.refreshesSent = Self.refreshPercents.count
                entries[key] = entry
            }
            return false
        }
        if record.cacheFlush { flush(sameAs: record, now: now) }
        let expires = now + .seconds(Int64(record.ttl))
        if let old = entries[key] {
            entries[key] = Entry(
                record: record, received: now, expires: expires, refreshesSent: 0, sequence: old.sequence)
            return false
        }
        if entries.count >= Self.maximumRecords { evict { _ in true } }
        entries[key] = Entry(record: record, received: now, expires: expires, refreshesSent: 0, sequence: nextSequence)
        nextSequence += 1
        return true
    }

    /// Removes the record that expires soonest of those for which `isIncluded` holds.
    mutating func evict(where isIncluded: (DNSResourceRecord) -> Bool) {
        var victim: (key: Key, expires: Duration)?
        for (key, entry) in entries
        where isIncluded(entry.record) && entry.expires < victim?.expires ?? .seconds(Int64.max) {
            victim = (key, entry.expires)
        }
        guard let victim else { return }
        entries[victim.key] = nil
        evictions += 1
    }

    /// Removes the records that expired at `now`; returns whether any did.
    mutating func removeExpired(now: Duration) -> Bool {
        guard entries.values.contains(where: { $0.expires <= now }) else { return false }
        entries = entries.filter { $0.value.expires > now }
        return true
    }

    /// The records whose next refresh is due at `now`, each counted as refreshed.
    mutating func dueRefreshes(now: Duration) -> [DNSResourceRecord] {
        var due: [DNSResourceRecord] = []
        for (key, entry) in entries {
            guard let time = Self.refreshTime(of: entry), time <= now else { continue }
            // Skip the refreshes that a long wait (a suspended process) let pass: one query for all.
            var refreshed = entry
            while let next = Self.refreshTime(of: refreshed), next <= now { refreshed.refreshesSent += 1 }
            entries[key] = refreshed
            due.append(entry.record)
        }
        return due
    }

    /// The record's remaining TTL at `now`, in whole seconds.
    func remainingTTL(of record: DNSResourceRecord, now: Duration) -> UInt32 {
        guard let entry = entries[Key(name: record.name, data: record.data)], entry.expires > now else { return 0 }
        return UInt32(clamping: (entry.expires - now).components.seconds)
    }

    /// When the cache next changes or has a refresh due, nil when it is empty.
    var nextDeadline: Duration? {
        entries.values.map { entry in Self.refreshTime(of: entry).map { min($0, entry.expires) } ?? entry.expires }
            .min()
    }

    /// When the next refresh query for `entry` is due, nil after the last.
    private static func refreshTime(of entry: Entry) -> Duration? {
        guard entry.refreshesSent < refreshPercents.count else { return nil }
        let ttl = Duration.seconds(Int64(entry.record.ttl))
        return entry.received + ttl * Int(refreshPercents[entry.refreshesSent]) / 100
    }

    /// Schedules the removal of the records `record` replaces: those of its name and type with other data
    /// received a second ago or earlier (RFC 6762 section 10.2).
    private mutating func flush(sameAs record: DNSResourceRecord, now: Duration) {
        for (key, entry) in entries
        where key.name == record.name && entry.record.type == record.type && key.data != record.data
            && entry.received + Self.removalDelay <= now
        {
            entries[key]?.expires = min(entry.expires, now + Self.removalDelay)
            entries[key]?.refreshesSent = Self.refreshPercents.count
        }
    }
}
