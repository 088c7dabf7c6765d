import Synchronization

/// A value of a non-Sendable type that is only reachable under a mutex.
///
/// `Mutex` itself would refuse closures that hand the replica to caller code (region isolation cannot
/// see that the closure runs synchronously, under the lock); this wrapper accepts them.
final class Locked<Value>: @unchecked Sendable {
    // Sendable because `value` is read and written only inside `mutex.withLock`, which serialises every
    // access, and `withLock` runs its closure synchronously: nothing reaches `value` without the lock
    // unless a closure smuggles a reference out, which SyncPeer's API documents as forbidden.
    /// The lock.
    private let mutex = Mutex(())
    /// The guarded value.
    private var value: Value

    /// Wraps `value`.
    init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        try mutex.withLock { _ throws(Failure) in try body(&value) }
    }
}
