import ListSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Listening: accept, and listen again, with backoff, on the same address after the system tore a
/// listener down (iOS does so to a suspended app's listeners).
extension PeerLoop {
    /// How often a listener is checked for having been torn down while nothing arrives.
    static var listenerCheckInterval: Duration { .seconds(1) }

    /// Adds a listener on `address` (bound), logging `listening on`.
    func addListener(_ socket: Socket, address: SocketAddress, now: ContinuousClock.Instant) {
        let endpoint = address.endpoint
        let backoff = Backoff(
            initial: configuration.reconnectInitialDelay, maximum: configuration.reconnectMaximumDelay)
        listeners.append(
            Listener(socket: socket, address: address, endpoint: endpoint, backoff: backoff, checkedAt: now))
        log("listening on \(endpoint)")
    }

    /// Accepts every pending connection on listener `index`, refusing those beyond the connection limit.
    ///
    /// A failed accept takes the listener down, to listen again after a backoff: it no longer listens
    /// (the system tore it down), or it cannot take connections now (no descriptors or memory left), and
    /// accepting again at once would only fail again in a loop. The exception is a connection reset
    /// while pending (`ECONNABORTED`) on a listener that still listens, unless every accept fails so
    /// (iOS reports a listener it reclaimed that way).
    func acceptAll(fromListener index: Int, now: ContinuousClock.Instant) {
        guard let listener = listeners[index].socket else { return }
        var abortedConnections = 0
        while true {
            let accepted: (Socket, Endpoint)?
            do {
                accepted = try listener.acceptConnection()
            } catch {
                let failure = listener.listeningError()
                if failure == nil && error.errno == ECONNABORTED && abortedConnections < 64 {
                    abortedConnections += 1
                    continue
                }
                return listenerFailed(index, because: failure ?? error, now: now)
            }
            guard let (socket, remote) = accepted else { return }
            guard connections.count < configuration.maximumConnections else {
                log("refused connection from \(remote): \(connections.count) connections open")
                socket.close()
                continue
            }
            let connection = TCPConnection(
                id: takeConnectionID(), socket: socket, remote: remote, address: nil, dial: nil, isConnecting: false,
                now: now)
            connections[connection.id] = connection
            log("\(connection.label) accepted")
            start(connection, role: .responder, now: now)
        }
    }

    /// Checks listeners not checked for ``listenerCheckInterval`` (a torn-down listener may never be
    /// reported by `poll`), and listens again on those down whose next attempt has come.
    func checkListeners(now: ContinuousClock.Instant) {
        for index in listeners.indices {
            if let socket = listeners[index].socket {
                guard now - listeners[index].checkedAt >= Self.listenerCheckInterval else { continue }
                listeners[index].checkedAt = now
                if let failure = socket.listeningError() { listenerFailed(index, because: failure, now: now) }
            } else if let next = listeners[index].nextAttempt, next <= now {
                listenAgain(index, now: now)
            }
        }
    }

    /// Closes listener `index`, which no longer listens, and schedules listening again; logs once per
    /// outage (the first failure), not once per attempt.
    private func listenerFailed(_ index: Int, because error: SocketError, now: ContinuousClock.Instant) {
        listeners[index].socket?.close()
        listeners[index].socket = nil
        let delay = listeners[index].backoff.nextDelay(random: Double.random(in: 0..<1, using: &random))
        listeners[index].nextAttempt = now + delay
        if listeners[index].lastError == nil {
            log(
                "listener on \(listeners[index].endpoint) failed: \(error); listening again in \(delay.milliseconds) ms"
            )
        }
        listeners[index].lastError = error
    }

    /// Binds listener `index`'s address again; on success logs `listening again on ...`.
    private func listenAgain(_ index: Int, now: ContinuousClock.Instant) {
        let address = listeners[index].address
        let socket: Socket
        do throws(SocketError) {
            socket = try Socket(family: address.family)
            do throws(SocketError) {
                _ = try socket.bindAndListen(on: address)
            } catch {
                socket.close()
                throw error
            }
        } catch {
            return listenerFailed(index, because: error, now: now)
        }
        listeners[index].socket = socket
        listeners[index].nextAttempt = nil
        listeners[index].lastError = nil
        listeners[index].backoff.reset()
        listeners[index].checkedAt = now
        log("listening again on \(listeners[index].endpoint)")
    }

    /// Checks every listener now and listens again at once, backoffs reset, on those that are down.
    func relistenNow(now: ContinuousClock.Instant) {
        for index in listeners.indices {
            if let socket = listeners[index].socket, let failure = socket.listeningError() {
                listenerFailed(index, because: failure, now: now)
            }
            if listeners[index].socket == nil {
                listeners[index].backoff.reset()
                listeners[index].nextAttempt = now
            }
            listeners[index].checkedAt = now
        }
    }

    /// Each listener and its state.
    func listenerStates(now: ContinuousClock.Instant) -> [PeerListener] {
        listeners.map { listener in
            PeerListener(
                endpoint: listener.endpoint,
                state: listener.socket != nil
                    ? .listening : .waiting(retryIn: max(.zero, (listener.nextAttempt ?? now) - now)),
                lastError: listener.lastError)
        }
    }
}
