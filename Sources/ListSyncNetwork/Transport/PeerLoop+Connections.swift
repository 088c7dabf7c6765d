import ListSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opening and closing connections: accept, dial, reconnect, close with a log line.
extension PeerLoop {
    /// Accepts every pending connection on `listener`, refusing those beyond the connection limit.
    func acceptAll(from listener: Socket, now: ContinuousClock.Instant) {
        while true {
            let accepted: (Socket, Endpoint)?
            do {
                accepted = try listener.acceptConnection()
            } catch {
                return log("accept failed: \(error)")
            }
            guard let (socket, remote) = accepted else { return }
            guard connections.count < configuration.maximumConnections else {
                log("refused connection from \(remote): \(connections.count) connections open")
                socket.close()
                continue
            }
            let connection = TCPConnection(
                id: takeConnectionID(), socket: socket, remote: remote, dial: nil, isConnecting: false, now: now)
            connections[connection.id] = connection
            log("\(connection.label) accepted")
            start(connection, role: .responder, now: now)
        }
    }

    /// Starts the handshake of a connected socket.
    private func start(_ connection: TCPConnection, role: ConnectionRole, now: ContinuousClock.Instant) {
        connection.startedAt = now
        do {
            try connection.socket.setOption(
                level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1, label: "TCP_NODELAY")
        } catch {
            return close(connection, because: .socket(error), now: now)
        }
        do {
            node.open(connection.id, role: role, nonce: try freshNonce())
        } catch {
            close(connection, because: error, now: now)
        }
    }

    /// A new connection number.
    private func takeConnectionID() -> ConnectionID {
        defer { nextConnectionNumber += 1 }
        return ConnectionID(nextConnectionNumber)
    }

    /// Starts connecting to every dial whose retry time has come.
    func startDueDials(now: ContinuousClock.Instant) {
        for (endpoint, dial) in dials where dial.connection == nil && dial.nextAttempt.map({ $0 <= now }) == true {
            let socket: Socket
            do throws(SocketError) {
                socket = try Socket(for: endpoint)
                do throws(SocketError) {
                    try socket.startConnect(to: endpoint)
                } catch {
                    socket.close()
                    throw error
                }
            } catch {
                log("connecting to \(endpoint) failed: \(error)")
                scheduleRetry(endpoint, after: .socket(error), wasLive: false, now: now)
                continue
            }
            let connection = TCPConnection(
                id: takeConnectionID(), socket: socket, remote: endpoint, dial: endpoint, isConnecting: true, now: now)
            connections[connection.id] = connection
            dials[endpoint]?.connection = connection.id
        }
    }

    /// Completes a non-blocking connect.
    func finishConnect(_ connection: TCPConnection, now: ContinuousClock.Instant) {
        if let error = connection.socket.connectionError() {
            return close(connection, because: .socket(error), now: now)
        }
        connection.isConnecting = false
        if !wasRefused(connection) { log("\(connection.label) connected") }
        start(connection, role: .initiator, now: now)
    }

    /// Closes a connection: tells the peer why when possible, logs the error code, and schedules a redial.
    ///
    /// A dial refused again the way it was refused last time logs nothing more until it fails otherwise,
    /// so a refusal is logged once, not once per attempt.
    func close(_ connection: TCPConnection, because error: SyncError, now: ContinuousClock.Instant) {
        guard connections.removeValue(forKey: connection.id) != nil else { return }
        let wasLive = node.isLive(connection.id)
        let closeFrame = node.close(connection.id, because: error)
        if !connection.isConnecting && connection.pendingByteCount == 0 && !closeFrame.isEmpty {
            _ = try? connection.socket.writeAvailable(closeFrame[...])
        }
        connection.socket.close()
        let endpoint = connection.dial.flatMap { dials[$0]?.connection == connection.id ? $0 : nil }
        if !isRepeatedRefusal(error, of: connection, endpoint: endpoint) {
            log("\(connection.label) closed: error \(error.code) \(error)")
        }
        if let endpoint {
            dials[endpoint]?.connection = nil
            scheduleRetry(endpoint, after: error, wasLive: wasLive, now: now)
        }
    }

    /// Whether `error` refuses `connection` the way its last connection was refused: the same error on
    /// the same dial `endpoint`, or for an accepted connection from the same host (then recorded).
    private func isRepeatedRefusal(_ error: SyncError, of connection: TCPConnection, endpoint: Endpoint?) -> Bool {
        guard RetryPolicy(error) != .linkFailure else { return false }
        if let endpoint { return dials[endpoint]?.lastError == error }
        guard connection.dial == nil else { return false }
        let host = connection.remote.host
        if refusedHosts[host] == error { return true }
        if refusedHosts.count >= 64 { refusedHosts.removeAll() }
        refusedHosts[host] = error
        return false
    }

    /// Whether `connection` redials an endpoint whose last connection was refused (its progress is not
    /// logged again until it fails otherwise).
    func wasRefused(_ connection: TCPConnection) -> Bool {
        guard let error = connection.dial.flatMap({ dials[$0]?.lastError }) else { return false }
        return RetryPolicy(error) != .linkFailure
    }

    /// Schedules the next attempt of a dial whose connection closed because of `error`, as
    /// ``RetryPolicy`` says: never for this peer itself, after the long refusal backoff when the peer
    /// refused this peer's identity, else after the backoff, which starts over only after a live
    /// connection ended without a refusal. Logs the delay unless the dial failed this way last time.
    private func scheduleRetry(
        _ endpoint: Endpoint, after error: SyncError, wasLive: Bool, now: ContinuousClock.Instant
    ) {
        guard var dial = dials[endpoint], !isStopping else { return }
        let policy = RetryPolicy(error)
        let isRepeated = dial.lastError == error && policy != .linkFailure
        dial.lastError = error
        let jitter = Double.random(in: 0..<1, using: &random)
        let delay: Duration
        switch policy {
        case .stop:
            dial.nextAttempt = nil
            dials[endpoint] = dial
            return log("stopped dialing \(endpoint): it is this peer (error \(error.code))")
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
        dials[endpoint] = dial
        if !isRepeated { log("reconnecting to \(endpoint) in \(delay.milliseconds) ms") }
    }

    /// Closes every connection and listener (on stop).
    func shutDown(now: ContinuousClock.Instant) {
        dials.removeAll()
        for connection in connections.values { close(connection, because: .shuttingDown, now: now) }
        for listener in listeners { listener.socket.close() }
        listeners.removeAll()
    }
}
