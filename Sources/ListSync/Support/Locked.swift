import Synchronization

/// A value of a non-Sendable type that is only reachable under a mutex (the list inside a sync peer or
/// a store, shared by those modules).
///
/// `Mutex` itself would refuse closures that hand the list to caller code (region isolation cannot
/// see that the closure runs synchronously, under the lock); this wrapper accepts them.
package final class Locked<Value>: @unchecked Sendable {
    // Sendable because `value` is read and written only inside `mutex.withLock`, which serialises every
    // access, and `withLock` runs its closure synchronously: nothing reaches `value` without the lock
    // unless a closure smuggles a reference out, which the APIs of SyncPeer and DurableReplica
    // (whose closures receive the list) document as forbidden.
    /// The lock.
    private let mutex = Mutex(())
    /// The guarded value.
    private var value: Value

    /// Wraps `value`.
    package init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try mutex.withLock { _ throws(Failure) in try body(&value) }
    }
}
