/// What a peer keeps connected: an endpoint, for one of its documents.
struct DialTarget: Hashable, CustomStringConvertible {
    /// Where to connect.
    let endpoint: Endpoint
    /// The number of the document in the loop's nodes.
    let document: Int

    /// The endpoint, as log lines name a dial.
    var description: String { endpoint.description }
}
