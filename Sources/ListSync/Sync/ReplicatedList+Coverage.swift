/// Telling duplicate change sets apart, for relays that forward only what is new to them.
extension ReplicatedList {
    /// Whether every operation `changes` accounts for has been seen here, so merging it would change nothing.
    ///
    /// A relay forwards a change set only when this is false, so each change travels each link once.
    /// - Complexity: O(r log m) for r ranges in `changes` and m ranges seen per replica.
    public func hasSeen(_ changes: ChangeSet) -> Bool { core.seen.contains(changes.coverage) }
}
