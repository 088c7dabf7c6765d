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
        for (endpoint, dial) in dials where dial.connection == nil && dial.nextAttempt <= now {
            let socket: Socket
            do {
                socket = try Socket(for: endpoint)
                do throws(SocketError) {
                    try socket.startConnect(to: endpoint)
                } catch {
                    socket.close()
                    throw error
                }
            } catch {
                log("connecting to \(endpoint) failed: \(error)")
                scheduleRetry(endpoint, now: now)
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
        log("\(connection.label) connected")
        start(connection, role: .initiator, now: now)
    }

    /// Closes a connection: tells the peer why when possible, logs the error code, and schedules a redial.
    func close(_ connection: TCPConnection, because error: SyncError, now: ContinuousClock.Instant) {
        guard connections.removeValue(forKey: connection.id) != nil else { return }
        let closeFrame = node.close(connection.id, because: error)
        if !connection.isConnecting && connection.pendingByteCount == 0 && !closeFrame.isEmpty {
            _ = try? connection.socket.writeAvailable(closeFrame[...])
        }
        connection.socket.close()
        log("\(connection.label) closed: error \(error.code) \(error)")
        if let endpoint = connection.dial, dials[endpoint]?.connection == connection.id {
            dials[endpoint]?.connection = nil
            scheduleRetry(endpoint, now: now)
        }
    }

    /// Schedules the next attempt of a dial after its backoff delay.
    private func scheduleRetry(_ endpoint: Endpoint, now: ContinuousClock.Instant) {
        guard var dial = dials[endpoint], !isStopping else { return }
        let delay = dial.backoff.nextDelay(random: Double.random(in: 0..<1, using: &random))
        dial.nextAttempt = now + delay
        dials[endpoint] = dial
        log(
            "reconnecting to \(endpoint) in \(delay.components.seconds * 1000 + delay.components.attoseconds / 1_000_000_000_000_000) ms"
        )
    }

    /// Closes every connection and listener (on stop).
    func shutDown(now: ContinuousClock.Instant) {
        dials.removeAll()
        for connection in connections.values { close(connection, because: .shuttingDown, now: now) }
        for listener in listeners { listener.socket.close() }
        listeners.removeAll()
    }
}
