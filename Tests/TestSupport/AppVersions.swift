/// A to-do row as an earlier app version has it: a title only.
public struct TodoV1: Codable, Equatable, Sendable {
    /// What to do.
    public var title: String

    /// A to-do called `title`.
    public init(title: String) { self.title = title }
}

/// The same row in a later app version: `done` is new and optional, the migration path the README
/// recommends, so this version reads every value the earlier one wrote.
public struct TodoV2: Codable, Equatable, Sendable {
    /// What to do.
    public var title: String
    /// Whether it is done; nil in rows no later version has edited.
    public var done: Bool?

    /// A to-do called `title`, done or not.
    public init(title: String, done: Bool?) {
        self.title = title
        self.done = done
    }
}
