import ListSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starting and closing connections: the handshake, a completed connect, a close with a log line.
extension PeerLoop {
    /// Starts the handshake of a connected socket: at once when dialed, once the first frame chose the
    /// document when accepted.
    func start(_ connection: TCPConnection, role: ConnectionRole, now: ContinuousClock.Instant) {
        connection.startedAt = now
        do {
            try connection.socket.setOption(
                level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1, label: "TCP_NODELAY")
        } catch {
            return close(connection, because: .socket(error), now: now)
        }
        guard let node = node(of: connection) else { return }
        do {
            node.open(connection.id, role: role, nonce: try freshNonce())
        } catch {
            close(connection, because: error, now: now)
        }
    }

    /// A new connection number.
    func takeConnectionID() -> ConnectionID {
        defer { nextConnectionNumber += 1 }
        return ConnectionID(nextConnectionNumber)
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
        let node = node(of: connection)
        let wasLive = node?.isLive(connection.id) ?? false
        let closeFrame: [UInt8]
        if let node {
            closeFrame = node.close(connection.id, because: error)
        } else {
            closedBeforeRouting[error.code, default: 0] += 1
            closeFrame = error.isToldToPeer ? SecureChannel.plaintextClose(for: error) : []
        }
        if !connection.isConnecting && connection.pendingByteCount == 0 && !closeFrame.isEmpty {
            _ = try? connection.socket.writeAvailable(closeFrame[...])
        }
        connection.socket.close()
        let target = connection.dial.flatMap { dials[$0]?.connection == connection.id ? $0 : nil }
        if !isRepeatedRefusal(error, of: connection, target: target) {
            log("\(connection.label) closed: error \(error.code) \(error)")
        }
        guard let target else { return }
        dials[target]?.connection = nil
        if connection.isConnecting && dials[target]?.untriedAddresses.isEmpty == false {
            dialNextAddress(target, after: error, now: now)
        } else {
            dials[target]?.untriedAddresses = []
            scheduleRetry(target, after: error, wasLive: wasLive, now: now)
        }
    }

    /// Whether `error` refuses `connection` the way its last connection was refused: the same error on
    /// the same dial `target`, or for an accepted connection from the same host (then recorded).
    private func isRepeatedRefusal(_ error: SyncError, of connection: TCPConnection, target: DialTarget?) -> Bool {
        guard RetryPolicy(error) != .linkFailure else { return false }
        if let target { return dials[target]?.lastError == error }
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

    /// Closes every connection and listener (on stop), after telling the peers that speak presence that
    /// this peer left, as far as their sockets take it at once.
    func shutDown(now: ContinuousClock.Instant) {
        dials.removeAll()
        discoveryDialer = nil
        leave(documents: Set(nodes.keys), now: now)
        for connection in connections.values { close(connection, because: .shuttingDown, now: now) }
        for listener in listeners { listener.socket?.close() }
        listeners.removeAll()
        resolver.stop()
    }
}
