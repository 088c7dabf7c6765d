import Dispatch
import ListSync
import Synchronization

/// Waiting for the loads of a drop from synchronous code (the demo and scenarios).
enum Loads {
    /// Runs every load concurrently and returns their results in order once all have ended.
    static func wait(for loads: [DropResult<Entry>.PendingLoad]) -> [Result<Entry, any Error>] {
        final class Results: Sendable {
            let values: Mutex<[Result<Entry, any Error>?]>
            init(count: Int) { values = Mutex(Array(repeating: nil, count: count)) }
        }
        let results = Results(count: loads.count)
        let finished = DispatchSemaphore(value: 0)
        for (offset, load) in loads.enumerated() {
            Task.detached {
                let result = await load.loadValue()
                results.values.withLock { $0[offset] = result }
                finished.signal()
            }
        }
        for _ in loads { finished.wait() }
        return results.values.withLock { $0.map { $0! } }
    }
}
