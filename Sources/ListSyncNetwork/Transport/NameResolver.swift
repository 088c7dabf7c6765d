import Foundation
import Synchronization

/// Looks up the host names of dialed endpoints off the event loop (`getaddrinfo` blocks): one thread
/// per lookup, at most one lookup per endpoint at a time, and a wake-up of the loop when one ends.
final class NameResolver: Sendable {
    /// What the lookup threads and the loop share.
    private struct State {
        /// Endpoints whose lookup has not returned.
        var running: Set<Endpoint> = []
        /// Lookups that returned, not yet taken by the loop.
        var finished: [(endpoint: Endpoint, addresses: Result<[SocketAddress], SocketError>)] = []
        /// Wakes the loop; nil once the loop has stopped (its pipe may be closed).
        var wakePipe: WakePipe?
    }

    private let state: Mutex<State>
    /// The lookup (``Endpoint/addresses()``, or a test's).
    private let lookUp: @Sendable (Endpoint) throws(SocketError) -> [SocketAddress]

    /// A resolver that runs `lookUp` and wakes the loop through `wakePipe` when a lookup ends.
    init(wakePipe: WakePipe, lookUp: @escaping @Sendable (Endpoint) throws(SocketError) -> [SocketAddress]) {
        state = Mutex(State(wakePipe: wakePipe))
        self.lookUp = lookUp
    }

    /// Starts looking up `endpoint`'s host, unless a lookup of it is still running (its result will do).
    func start(_ endpoint: Endpoint) {
        let isNew = state.withLock { state in state.running.insert(endpoint).inserted }
        guard isNew else { return }
        Thread.detachNewThread { [self] in
            let addresses = Result { () throws(SocketError) in try lookUp(endpoint) }
            state.withLock { state in
                state.running.remove(endpoint)
                state.finished.append((endpoint, addresses))
                state.wakePipe?.wake()
            }
        }
    }

    /// The lookups that ended since the last call.
    func takeFinished() -> [(endpoint: Endpoint, addresses: Result<[SocketAddress], SocketError>)] {
        state.withLock { state in
            defer { state.finished.removeAll() }
            return state.finished
        }
    }

    /// Stops waking the loop: call before its wake-up pipe is closed. Lookups still running end unseen.
    func stop() { state.withLock { $0.wakePipe = nil } }
}
