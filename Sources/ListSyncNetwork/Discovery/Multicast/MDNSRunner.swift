import Dispatch
import Foundation
import ListSync

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs an ``MDNSCore`` on multicast sockets: a thread polls the sockets (IPv4 and IPv6, each where an
/// interface has an address of the family) with a timeout no later than the core's next deadline, feeds
/// it what arrives, multicasts what it returns and passes its events to a handler.
///
/// Every wait is bounded: poll by the next deadline and at most ``maximumPollInterval``; ``stop()``
/// waits at most its timeout for the thread. At most ``maximumPacketsPerWake`` packets are read per
/// socket between two deadline checks, so that a flood cannot starve the timers.
final class MDNSRunner: Sendable {
    /// The longest single poll.
    static let maximumPollInterval = Duration.milliseconds(500)
    /// Packets read from one socket before the timers are looked at again.
    static let maximumPacketsPerWake = 64

    /// What the thread shares with callers.
    private struct State {
        /// The core.
        var core: MDNSCore
        /// The sockets, closed once the thread ends.
        let sockets: [MulticastSocket]
        /// The wake-up pipe.
        let wakePipe: WakePipe
        /// Whether ``stop()`` was called.
        var isStopping = false
        /// Sends that failed (an interface gone, a full buffer), for diagnostics.
        var sendFailures = 0
    }

    /// The state, guarded.
    private let state: Locked<State>
    /// Receives the browser's events, on the runner's thread.
    private let handler: @Sendable (BrowserEvent) -> Void
    /// The time origin of the core's durations.
    private let start = ContinuousClock.now
    /// Signalled when the thread has ended.
    private let finished = DispatchSemaphore(value: 0)

    /// Starts advertising `advertised` (if any) and browsing with `browser` (if any) on `interfaces`,
    /// IPv4 and IPv6 each on those interfaces that have an address of it, on `port` (5353; a test may
    /// choose another). `handler` receives the browser's events on the runner's thread.
    /// - Throws: ``SocketError`` when no socket could be opened (the error of the last family tried).
    init(
        advertising advertised: ServiceInstance?, browsing: Bool, interfaces: [NetworkInterface],
        port: UInt16 = MDNSCore.port, handler: @escaping @Sendable (BrowserEvent) -> Void
    ) throws(SocketError) {
        var sockets: [MulticastSocket] = []
        var lastError: SocketError?
        for family in [AF_INET, AF_INET6] {
            do throws(SocketError) {
                sockets.append(try MulticastSocket(family: family, interfaces: interfaces, port: port))
            } catch {
                lastError = error
            }
        }
        guard !sockets.isEmpty else {
            throw lastError ?? SocketError(errno: ENODEV, function: "mDNS (no interface)")
        }
        let wakePipe: WakePipe
        do {
            wakePipe = try WakePipe()
        } catch {
            for socket in sockets { socket.close() }
            throw error
        }
        // The browser's service name is a constant that fits.
        let browser = browsing ? try? ServiceBrowser(now: .zero) : nil
        state = Locked(
            State(
                core: MDNSCore(advertising: advertised, browser: browser, now: .zero), sockets: sockets,
                wakePipe: wakePipe))
        self.handler = handler
        Thread.detachNewThread { [self] in run() }
    }

    /// The instance advertised, as currently named (renamed after a conflict), nil when not advertising.
    var advertised: ServiceInstance? { state.withLock { $0.core.responder?.instance } }

    /// The instances found so far.
    var services: [DiscoveredService] { state.withLock { Array(($0.core.browser?.services ?? [:]).values) } }

    /// Packets received that did not decode, and well-formed ones ignored for their source port.
    var droppedPackets: (malformed: Int, ignored: Int) {
        state.withLock { ($0.core.malformedPackets, $0.core.ignoredPackets) }
    }

    /// Advertises `txtRecord` from now on, announced again at once, when advertising.
    func update(txtRecord: TXTRecord) {
        state.withLock { state in
            state.core.update(txtRecord: txtRecord, now: now)
            state.wakePipe.wake()
        }
    }

    /// Says goodbye, closes the sockets and ends the thread, waiting at most `timeout` for it. Returns
    /// whether the thread ended in time. Later calls return at once.
    @discardableResult
    func stop(timeout: Duration = .seconds(2)) -> Bool {
        let wasStopping = state.withLock { state in
            defer { state.isStopping = true }
            state.wakePipe.wake()
            return state.isStopping
        }
        guard !wasStopping else { return true }
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000)
        return finished.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success
    }

    /// The time on the core's clock.
    private var now: Duration { ContinuousClock.now - start }

    /// The thread: poll, receive, send, until stopped; then the goodbye.
    private func run() {
        var buffer = [UInt8](repeating: 0, count: MulticastSocket.receiveBufferSize)
        while true {
            let (descriptors, timeout, stopping) = state.withLock { state in
                let wait = min((state.core.nextDeadline ?? .seconds(3600)) - now, Self.maximumPollInterval)
                let descriptors = [state.wakePipe.readEnd] + state.sockets.map(\.socket.descriptor)
                return (descriptors, max(0, Int32(clamping: wait.milliseconds) + 1), state.isStopping)
            }
            if stopping { break }
            var polled = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            _ = poll(&polled, nfds_t(polled.count), timeout)
            let events = state.withLock { state in
                state.wakePipe.drain()
                var events: [BrowserEvent] = []
                for socket in state.sockets { events += receive(from: socket, into: &buffer, state: &state) }
                let output = state.core.poll(now: now)
                send(output.messages, state: &state)
                return events + output.events
            }
            for event in events { handler(event) }
        }
        state.withLock { state in
            send(state.core.stop(), state: &state)
            for socket in state.sockets { socket.close() }
            state.wakePipe.close()
        }
        finished.signal()
    }

    /// Reads what waits on `socket` (at most ``maximumPacketsPerWake`` packets) into the core.
    private func receive(from socket: MulticastSocket, into buffer: inout [UInt8], state: inout State)
        -> [BrowserEvent]
    {
        var events: [BrowserEvent] = []
        for _ in 0..<Self.maximumPacketsPerWake {
            // A read error (ECONNREFUSED from an ICMP, say) ends this round; the socket stays.
            guard let (count, sourcePort) = try? socket.receive(into: &buffer) else { break }
            let output = state.core.receive(packet: Array(buffer.prefix(count)), sourcePort: sourcePort, now: now)
            send(output.messages, state: &state)
            events += output.events
        }
        return events
    }

    /// Multicasts `messages` on every socket.
    private func send(_ messages: [DNSMessage], state: inout State) {
        for message in messages {
            // The core's messages are its own records, well within the encoder's limits.
            guard let packet = try? message.encoded() else { continue }
            for socket in state.sockets { state.sendFailures += socket.send(packet).count }
        }
    }
}
