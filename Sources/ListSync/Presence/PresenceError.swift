/// Why a presence was refused.
public enum PresenceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The presence is larger than ``Presence/Limits`` allow; the reason says which limit and by how much.
    case beyondLimits(String)

    /// What was wrong, for log lines and prompts.
    public var description: String {
        switch self {
        case .beyondLimits(let reason): "presence beyond its limits: \(reason)"
        }
    }
}
