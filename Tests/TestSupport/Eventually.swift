/// Polls `condition` every 20 ms, on the caller's actor (which runs its other tasks meanwhile), until it
/// holds or `timeout` passes; returns whether it held.
public func eventually(
    _ timeout: Duration = .seconds(20), isolation: isolated (any Actor)? = #isolation, _ condition: () -> Bool
) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return condition()
}
