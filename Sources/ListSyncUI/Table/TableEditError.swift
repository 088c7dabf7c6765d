import ListSync

/// Why an edit made from a table view (a reorder, a deletion, a drop) did not happen, or a dropped
/// item did not become a row.
public enum TableEditError: Error {
    /// A dropped item's data at hand does not decode; nothing was dropped.
    case undecodableDrop(RepresentationError)
    /// The item shown by placeholder `placeholder` could not be loaded or decoded (the error says why);
    /// the placeholder was withdrawn.
    case loadFailed(placeholder: PlaceholderID, any Error)
    /// The replica could not keep the edit (a store that could not log it: the error says why);
    /// nothing of it was applied, and the table is brought back to the list's rows.
    case notKept(any Error)
}
