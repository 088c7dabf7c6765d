import ListSync
import TestSupport
import Testing

@testable import ListSyncNetwork

/// States and rows larger than a frame sync over real TCP on the loopback interface. One at a time: each
/// keeps a core busy for seconds in a debug build, and other suites' timeouts are short.
@Suite(.serialized) struct TCPLargeStateTests {
    /// Syncs `rows` from a listening peer to a new peer that dials it; returns what the new peer holds
    /// and the log lines of connections that closed.
    static func syncToNewPeer(_ rows: [String]) async throws -> (rows: [String], closes: [String]) {
        // Timeouts generous for frames of 1 MiB through debug-build crypto on a loaded machine.
        let log = LogRecorder()
        var configuration = PeerConfiguration.test(log)
        configuration.idleTimeout = .seconds(60)
        configuration.handshakeTimeout = .seconds(30)
        configuration.writeTimeout = .seconds(60)
        let source = try ListPeer(replica: ReplicatedList(replicaID: ReplicaID(1)), configuration: configuration)
        defer { source.stop() }
        source.edit { $0.append(contentsOf: rows) }
        let endpoint = try source.listen(on: Endpoint(host: "127.0.0.1", port: 0))
        let joiner = try ListPeer(replica: ReplicatedList(replicaID: ReplicaID(2)), configuration: configuration)
        defer { joiner.stop() }
        joiner.connect(to: endpoint)
        _ = await eventually(.seconds(120)) { joiner.read { $0.count } == rows.count }
        return (ListSyncNetworkTests.rows(joiner), log.lines.filter { $0.contains(" closed: ") })
    }

    /// 20 rows of 1 MB: more than one 16 MiB frame in all.
    @Test func twentyMegabyteStateSyncsToANewPeer() async throws {
        let rows = (0..<20).map { "\($0) " + String(repeating: "x", count: 1 << 20) }
        let (received, closed) = try await Self.syncToNewPeer(rows)
        try #require(received.count == 20)
        let same = received == rows
        #expect(same, "the rows differ")
        #expect(closed.isEmpty, "\(closed)")
    }

    /// One row of 17 MB: larger than a frame on its own, so it travels in pieces.
    @Test func seventeenMegabyteRowSyncsToANewPeer() async throws {
        let row = String(repeating: "y", count: 17 << 20)
        let (received, closed) = try await Self.syncToNewPeer([row])
        try #require(received.first?.count == row.count)
        let same = received == [row]
        #expect(same, "the row differs")
        #expect(closed.isEmpty, "\(closed)")
    }
}
