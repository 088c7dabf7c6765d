import Synchronization

/// Failures to inject into the store's file layer, for tests: the next calls of a function (`write`,
/// `fsync`, `ftruncate`) on matching paths fail with a given `errno` instead of running. A failing
/// `write` first writes half of its bytes, as a write cut short by a full disk does.
///
/// Internal: set through `StoreOptions.faults` by `@testable` tests only; nil in every real store.
final class FileFaults: Sendable {
    private struct Rule {
        var function: String
        var pathSuffix: String
        var errno: Int32
        var remaining: Int
    }

    private let rules = Mutex<[Rule]>([])

    /// Makes the next `times` calls of `function` on a path ending in `pathSuffix` fail with `errno`.
    func fail(_ function: String, errno: Int32, times: Int, pathSuffix: String = "") {
        rules.withLock { $0.append(Rule(function: function, pathSuffix: pathSuffix, errno: errno, remaining: times)) }
    }

    /// The `errno` a call of `function` on `path` must fail with, if a rule says so (using it up).
    func injectedError(_ function: String, path: String) -> Int32? {
        rules.withLock { rules in
            guard let index = rules.firstIndex(where: { $0.function == function && path.hasSuffix($0.pathSuffix) })
            else { return nil }
            rules[index].remaining -= 1
            let code = rules[index].errno
            if rules[index].remaining <= 0 { rules.remove(at: index) }
            return code
        }
    }
}
