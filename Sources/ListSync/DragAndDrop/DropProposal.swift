/// Where a drop session hovers over a list.
public enum DropTarget: Hashable, Sendable {
    /// Between rows: just before the row at the index (the row count for the end).
    case gap(Int)
    /// Over the middle of the row at the index.
    case row(Int)
}

/// What a drop at a target would do, as `UITableViewDropProposal` says it.
public struct DropProposal: Hashable, Sendable {
    /// The operation the drop performs.
    public enum Operation: Hashable, Sendable {
        /// No drop here (no target, or nothing dragged).
        case cancel
        /// The drop is refused here.
        case forbidden
        /// Content from elsewhere is inserted (or merged into a row).
        case copy
        /// Rows of this list move.
        case move
    }

    /// Where the content goes.
    public enum Intent: Hashable, Sendable {
        /// Inserted as new rows before the row at ``DropProposal/destination``.
        case insertAtDestination
        /// Merged into the row at ``DropProposal/destination`` (a phone number dropped onto a contact).
        case insertIntoDestination
    }

    /// The operation.
    public var operation: Operation
    /// The intent.
    public var intent: Intent
    /// The index the intent refers to.
    public var destination: Int

    /// Creates a proposal.
    public init(operation: Operation, intent: Intent = .insertAtDestination, destination: Int = 0) {
        self.operation = operation
        self.intent = intent
        self.destination = destination
    }

    /// Whether a drop would do something.
    public var isAccepted: Bool { operation == .copy || operation == .move }
}
