/// Counters of one sync node, for tests, benchmarks and monitoring.
public struct SyncStatistics: Sendable, Hashable {
    /// Bytes handed to the transport.
    public var bytesSent = 0
    /// Bytes received from the transport.
    public var bytesReceived = 0
    /// CHANGES messages queued for peers (local, relayed, anti-entropy).
    public var changeSetsSent = 0
    /// CHANGES messages received.
    public var changeSetsReceived = 0
    /// Received change sets that brought something new and were merged.
    public var changeSetsApplied = 0
    /// Operations accounted for by the change sets applied (a relay that works applies each once).
    public var operationsApplied: UInt64 = 0
    /// Received change sets already seen entirely, ignored (relay duplicates).
    public var duplicateChangeSets = 0
    /// Times a full outbox dropped its change sets for a version-vector resync.
    public var resyncs = 0
    /// Connections that completed the handshake.
    public var connectionsAuthenticated = 0
    /// Connections closed with an error, by ``SyncError/code``.
    public var closedByCode: [UInt8: Int] = [:]

    /// Empty counters.
    public init() {}
}
