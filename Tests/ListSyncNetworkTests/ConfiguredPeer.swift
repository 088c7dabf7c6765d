import ListSync

@testable import ListSyncNetwork

/// A peer over an empty list with replica `id`, logging to `recorder`, with the test configuration
/// (``PeerConfiguration/test(_:settings:)``) changed by `configure`.
func makePeer(
    _ id: UInt64, _ recorder: LogRecorder, configure: (inout PeerConfiguration) -> Void
) throws -> ListPeer {
    var configuration = PeerConfiguration.test(recorder)
    configure(&configuration)
    return try ListPeer(replica: ReplicatedList(replicaID: ReplicaID(id)), configuration: configuration)
}
