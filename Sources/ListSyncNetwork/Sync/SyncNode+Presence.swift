import ListSync

/// What the sync core knows of presence: the other peers' table and this peer's own update.
struct PresenceState {
    /// The other peers' presence (never this peer's own).
    var table = PresenceTable()
    /// This peer's latest update, once it set a presence (a departure once it left).
    var own: PresenceTable.Update?
    /// When `own` was last sent, so that it is renewed before the others' tables expire it.
    var sentAt: ContinuousClock.Instant?
    /// The latest time the transport gave (``SyncNode/tickPresence(now:)``): when updates received since
    /// were heard. Updates received before the first tick are dropped.
    var now: ContinuousClock.Instant?
}

/// Presence (Protocol.md section 2.7): each peer's name, selection and drag, sent on the connections
/// that agreed on protocol version 6 or later, relayed once like change sets, never stored.
extension SyncNode {
    /// The presences of the other peers present, without the rows this replica does not show (deleted,
    /// or not arrived yet).
    /// - Complexity: O(p log n) for p rows named by presences and n rows.
    public var presences: [ReplicaID: Presence] {
        replica.read { list in presence.table.presences { list.index(forRow: $0) != nil } }
    }

    /// This peer's own presence, as the others see it; nil before it set one and after it cleared it.
    public var ownPresence: Presence? { presence.own?.presence }

    /// Sets this peer's presence, or clears it (`nil`: this peer left, as on stop), and queues it for
    /// every connection that speaks presence.
    ///
    /// Its ``Presence/pendingDrops`` are this replica's pending placeholders
    /// (``ReplicatedList/pendingDrops``), whatever `newPresence` says, and stay so after every local
    /// edit: the others see "dropping 3 here" while the loads run.
    ///
    /// - Parameters:
    ///   - wallClockMilliseconds: the wall clock, in milliseconds since 1970; the update's clock is at
    ///     least this, so that the updates of a restarted peer are newer than those of its last run.
    ///   - now: the transport's monotonic clock.
    /// - Throws: ``PresenceError/beyondLimits(_:)`` when `presence` exceeds ``Presence/Limits``;
    ///   nothing changed then.
    public func setPresence(
        _ newPresence: Presence?, wallClockMilliseconds: UInt64, now: ContinuousClock.Instant
    ) throws(PresenceError) {
        var newPresence = newPresence
        newPresence?.pendingDrops = replica.read { $0.pendingDrops }
        try newPresence?.validate()
        let clock = max(wallClockMilliseconds, (presence.own?.clock ?? 0) &+ 1)
        presence.own = PresenceTable.Update(replica: replicaID, clock: clock, presence: newPresence)
        tickPresence(now: now)
        sendOwnPresence()
    }

    /// Advances presence to `now` (call it often, say on every turn of the transport loop): forgets
    /// the peers silent for the table's timeout, and renews this peer's presence every half timeout.
    public func tickPresence(now: ContinuousClock.Instant) {
        presence.now = now
        let held = presence.table.count
        if !presence.table.expire(at: now).isEmpty { postPresences() }
        if presence.table.count < held {
            // Forget pending peers that expired, so a queue that does not drain stays bounded by the table.
            for session in sessions.values where !session.pendingPresence.isEmpty {
                session.pendingPresence = session.pendingPresence.filter {
                    $0 == replicaID || presence.table.update(of: $0) != nil
                }
            }
        }
        if presence.own?.presence != nil, let sentAt = presence.sentAt, now - sentAt >= presence.table.timeout / 2 {
            presence.own?.clock &+= 1
            sendOwnPresence()
        }
    }

    /// Shows this replica's pending placeholders as they are after a local edit, when a presence is set
    /// and they changed.
    func refreshPendingDrops() {
        // O(1) when no placeholder is pending.
        guard let own = presence.own?.presence else { return }
        let drops = replica.read { $0.pendingDrops }
        guard drops != own.pendingDrops else { return }
        presence.own?.presence?.pendingDrops = drops
        presence.own?.clock &+= 1
        sendOwnPresence()
    }

    /// Queues this peer's own update for every connection that speaks presence.
    private func sendOwnPresence() {
        presence.sentAt = presence.now
        for session in sessions.values where session.channel.isAuthenticated && session.speaksPresence {
            session.pendingPresence.insert(replicaID)
        }
    }

    /// Queues the whole table and this peer's update for a connection that just authenticated.
    func startPresence(on session: SyncSession) {
        guard session.speaksPresence else { return }
        session.pendingPresence = Set(presence.table.updates.map(\.replica))
        if presence.own != nil { session.pendingPresence.insert(replicaID) }
    }

    /// Applies the updates of a PRESENCE from connection `id`, and relays those that were new to the
    /// other connections that speak presence.
    func receivePresence(_ updates: [PresenceTable.Update], from id: ConnectionID) {
        guard let now = presence.now else { return }
        var changed = false
        for update in updates where update.replica != replicaID {
            guard presence.table.apply(update, at: now) else { continue }
            changed = true
            for (other, session) in sessions
            where other != id && session.channel.isAuthenticated && session.speaksPresence {
                session.pendingPresence.insert(update.replica)
            }
        }
        if changed { postPresences() }
    }

    /// The next PRESENCE for `session`: the latest update of each peer pending, as many as fit one
    /// frame (at least one; the largest update is far below the 16 MiB every peer accepts).
    func nextPresenceMessage(for session: SyncSession) -> SyncMessage? {
        var updates: [PresenceTable.Update] = []
        var byteCount = 0
        while updates.count < PresenceTable.maximumPeerCount, let replica = session.pendingPresence.first {
            guard let update = replica == replicaID ? presence.own : presence.table.update(of: replica) else {
                session.pendingPresence.remove(replica)
                continue
            }
            let size = PresenceTable.Update.encode([update]).count
            if !updates.isEmpty && byteCount + size > frameBudget { break }
            session.pendingPresence.remove(replica)
            updates.append(update)
            byteCount += size
        }
        return updates.isEmpty ? nil : .presence(updates)
    }

    /// Posts the presences to ``presenceFeed`` when anyone listens.
    private func postPresences() {
        if presenceFeed.hasSubscribers { presenceFeed.post(presences) }
    }
}
