import Foundation
import ListSync
import Synchronization

/// The loads of drops on a cluster's replicas, running in the background until they are landed
/// (``Cluster/land(_:)``): by a scenario's `wait`, or when the demo's story is ready for them.
final class RunningLoads: Sendable {
    /// A load that ended, not yet landed.
    struct Ended: Sendable {
        /// The replica whose placeholder it fills.
        var replica: Int
        /// The placeholder.
        var placeholder: PlaceholderID
        /// The loaded value, or why loading failed.
        var result: Result<Entry, any Error>
        /// When it started, relative to the others.
        var order: Int
    }

    /// Loads started, and the ended ones not yet taken.
    private let state = Mutex<(started: Int, taken: Int, ended: [Ended])>((0, 0, []))

    /// Starts `load` for a placeholder of replica `replica`.
    func start(_ load: DropResult<Entry>.PendingLoad, on replica: Int) {
        let order = state.withLock { state in
            state.started += 1
            return state.started - 1
        }
        Task.detached {
            let result = await load.loadValue()
            self.state.withLock { state in
                state.ended.append(Ended(replica: replica, placeholder: load.placeholder, result: result, order: order))
            }
        }
    }

    /// Removes and returns the loads that ended, in the order they started.
    func takeEnded() -> [Ended] {
        state.withLock { state in
            let ended = state.ended.sorted { $0.order < $1.order }
            state.taken += ended.count
            state.ended = []
            return ended
        }
    }

    /// Waits until every load started has ended, or `timeout` passed.
    /// - Returns: whether they all ended.
    func waitForAll(timeout: Duration) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while state.withLock({ $0.taken + $0.ended.count < $0.started }) {
            if clock.now >= deadline { return false }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return true
    }
}
