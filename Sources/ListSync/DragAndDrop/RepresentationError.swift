/// Why data could not cross a drag boundary. Nothing was inserted or changed.
public enum RepresentationError: Error, Hashable, Sendable {
    /// The type reads or writes no data of this identifier.
    case unsupportedTypeIdentifier(TypeIdentifier)
    /// The data claims to be of `typeIdentifier` but is not valid: `reason` says what is wrong and where.
    case malformedData(TypeIdentifier, reason: String)
}
