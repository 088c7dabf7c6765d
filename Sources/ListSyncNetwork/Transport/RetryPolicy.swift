/// How a dialed endpoint is retried after its connection closed with an error.
enum RetryPolicy: Hashable, Sendable {
    /// Never again: the endpoint is this peer itself.
    case stop
    /// The peer refused who we are (secret, document, protocol): retry after the long refusal backoff.
    case refusedIdentity
    /// The peer refused what we sent, or we refused what it sent: the backoff keeps growing.
    case refusedData
    /// The link failed or ended: back off, starting over when the connection had been live.
    case linkFailure

    /// The policy for a connection that closed because of `error` (ours, or the code of the peer's CLOSE).
    init(_ error: SyncError) {
        let code: UInt8
        if case .closedByPeer(let peerCode, _) = error { code = peerCode } else { code = error.code }
        switch code {
        case SyncError.selfConnection.code: self = .stop
        case 4, 5, 6, 7: self = .refusedIdentity
        case 1, 2, 3, 8, 10, 19, 20: self = .refusedData
        default: self = .linkFailure
        }
    }
}
