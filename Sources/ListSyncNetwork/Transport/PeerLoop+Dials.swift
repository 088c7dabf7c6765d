import ListSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Dialing: each attempt resolves the endpoint (a host name off the loop), tries its addresses in order
/// until one connects, and schedules the next attempt with backoff when none does.
extension PeerLoop {
    /// Keeps `target` connected from now on (found as the mDNS instance `discoveredAs`, or typed when
    /// nil), unless it is dialed already. An open connection dialed to it before is kept as its own.
    func addDial(_ target: DialTarget, discoveredAs: String?, now: ContinuousClock.Instant) {
        guard dials[target] == nil, !isStopping else { return }
        let open = connections.values.first { $0.dial == target }
        dials[target] = Dial(
            backoff: Backoff(
                initial: configuration.reconnectInitialDelay, maximum: configuration.reconnectMaximumDelay),
            refusalBackoff: Backoff(
                initial: configuration.refusalInitialDelay, maximum: configuration.refusalMaximumDelay),
            nextAttempt: open == nil ? now : nil, connection: open?.id, discoveredAs: discoveredAs)
        wake()
    }

    /// Starts every dial whose retry time has come and that is not connected or looking up its host.
    func startDueDials(now: ContinuousClock.Instant) {
        for (target, dial) in dials
        where dial.connection == nil && dial.lookupStartedAt == nil && dial.nextAttempt.map({ $0 <= now }) == true {
            guard target.endpoint.isNumeric else {
                dials[target]?.lookupStartedAt = now
                resolver.start(target.endpoint)
                continue
            }
            do {
                dials[target]?.untriedAddresses = try target.endpoint.addresses()
            } catch {
                log("connecting to \(target) failed: \(error)")
                scheduleRetry(target, after: .socket(error), wasLive: false, now: now)
                continue
            }
            dialNextAddress(target, after: nil, now: now)
        }
    }

    /// Dials the addresses of the host names looked up since the last call, and fails the attempts whose
    /// lookup took longer than the connect timeout (a lookup still running is not started again).
    func finishLookups(now: ContinuousClock.Instant) {
        for (endpoint, addresses) in resolver.takeFinished() {
            for target in dials.keys where target.endpoint == endpoint && dials[target]?.lookupStartedAt != nil {
                dials[target]?.lookupStartedAt = nil
                switch addresses {
                case .success(let addresses):
                    dials[target]?.untriedAddresses = addresses
                    dialNextAddress(target, after: nil, now: now)
                case .failure(let error):
                    log("connecting to \(target) failed: \(error)")
                    scheduleRetry(target, after: .socket(error), wasLive: false, now: now)
                }
            }
        }
        for (target, dial) in dials {
            guard let started = dial.lookupStartedAt, now - started > configuration.connectTimeout else { continue }
            dials[target]?.lookupStartedAt = nil
            let error = SocketError(errno: ETIMEDOUT, function: "getaddrinfo(\(target.endpoint.host))")
            log("connecting to \(target) failed: \(error)")
            scheduleRetry(target, after: .socket(error), wasLive: false, now: now)
        }
    }

    /// Starts connecting to the next untried address of `target`'s attempt; when none is left, schedules
    /// the next attempt after `error`, the failure of the last address tried.
    func dialNextAddress(_ target: DialTarget, after error: SyncError?, now: ContinuousClock.Instant) {
        var lastError = error
        while var dial = dials[target], !dial.untriedAddresses.isEmpty {
            let address = dial.untriedAddresses.removeFirst()
            dials[target] = dial
            let socket: Socket
            do throws(SocketError) {
                socket = try Socket(family: address.family)
                do throws(SocketError) {
                    try socket.startConnect(to: address)
                } catch {
                    socket.close()
                    throw error
                }
            } catch {
                log("connecting to \(target) failed: \(error)")
                lastError = .socket(error)
                continue
            }
            let connection = TCPConnection(
                id: takeConnectionID(), socket: socket, remote: target.endpoint, address: address.endpoint,
                dial: target, discoveredAs: dial.discoveredAs, isConnecting: true, now: now)
            connections[connection.id] = connection
            dials[target]?.connection = connection.id
            return
        }
        if let lastError { scheduleRetry(target, after: lastError, wasLive: false, now: now) }
    }

    /// Schedules the next attempt of a dial whose connection closed because of `error`, as
    /// ``RetryPolicy`` says: never for this peer itself, after the long refusal backoff when the peer
    /// refused this peer's identity, else after the backoff, which starts over only after a live
    /// connection ended without a refusal. Logs the delay unless the dial failed this way last time.
    func scheduleRetry(
        _ target: DialTarget, after error: SyncError, wasLive: Bool, now: ContinuousClock.Instant
    ) {
        guard var dial = dials[target], !isStopping else { return }
        let policy = RetryPolicy(error)
        let isRepeated = dial.lastError == error && policy != .linkFailure
        dial.lastError = error
        let jitter = Double.random(in: 0..<1, using: &random)
        let delay: Duration
        switch policy {
        case .stop:
            dial.nextAttempt = nil
            dials[target] = dial
            return log("stopped dialing \(target): it is this peer (error \(error.code))")
        case .refusedIdentity:
            delay = dial.refusalBackoff.nextDelay(random: jitter)
        case .refusedData:
            delay = dial.backoff.nextDelay(random: jitter)
        case .linkFailure:
            if wasLive { dial.backoff.reset() }
            if wasLive { dial.refusalBackoff.reset() }
            delay = dial.backoff.nextDelay(random: jitter)
        }
        dial.nextAttempt = now + delay
        dials[target] = dial
        if !isRepeated { log("reconnecting to \(target) in \(delay.milliseconds) ms") }
    }

    /// Dials every endpoint waiting for its next attempt now, with its backoffs reset, and sends a
    /// heartbeat on every authenticated connection so that one the system tore down fails (and redials)
    /// at once.
    func redialNow(now: ContinuousClock.Instant) {
        for target in Array(dials.keys) {
            dials[target]?.backoff.reset()
            dials[target]?.refusalBackoff.reset()
            if dials[target]?.connection == nil && dials[target]?.nextAttempt != nil {
                dials[target]?.nextAttempt = now
            }
        }
        for connection in connections.values where isAuthenticated(connection) {
            node(of: connection)?.queueHeartbeat(on: connection.id)
        }
    }
}
