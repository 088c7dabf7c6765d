import ListSync

extension ReplicatedList where Element == Entry {
    /// Ends placeholder `id` with the result of its load (``finishLoad(_:with:)``) and says how it
    /// ended: `loaded "Ada Lovelace"`, or why it was withdrawn.
    func land(_ id: PlaceholderID, with result: Result<Entry, any Error>) -> (change: ListChange, report: String) {
        let (outcome, change) = finishLoad(id, with: result)
        switch outcome {
        case .committed(_, let row): return (change, "loaded \"\(self[row: row]?.value.text ?? "?")\"")
        case .failed(_, let error): return (change, "\(error); its placeholder is withdrawn")
        case .cancelled: return (change, "load cancelled; its placeholder is withdrawn")
        }
    }
}
