/// A task that is cancelled when this is released (the owner's observation of changes).
final class CancelledOnRelease: Sendable {
    private let task: Task<Void, Never>

    /// Owns `task`.
    init(_ task: Task<Void, Never>) { self.task = task }

    deinit { task.cancel() }
}
