import ListSync
import ListSyncNetwork

// Peers of one document share its ID and a secret of 16 bytes or more (random, in a real app).
let settings = SyncSettings(document: "groceries", secret: Array("a secret the two devices share".utf8))

// The laptop listens; port 0 picks a free port, and `listen` returns the bound endpoint.
let laptop = try SyncPeer(replica: ReplicatedList<String>(), configuration: PeerConfiguration(sync: settings))
let address = try laptop.listen(on: Endpoint(host: "127.0.0.1", port: 0))

// The phone dials it, and redials with exponential backoff and jitter whenever the connection drops.
let phone = try SyncPeer(replica: ReplicatedList<String>(), configuration: PeerConfiguration(sync: settings))
phone.connect(to: address)

// The laptop's UI subscribes to every change of its list: its rows now, then one event per change.
let events = laptop.changeEvents()
var rows = events.initialRows

// Edit through the peer: the change streams to the laptop, which would relay it to its other peers.
phone.edit { list in list.append(contentsOf: ["milk", "eggs"]) }

// Each event brings the batch for a table view and the rows it inserts or updates. (A stopped peer ends
// the sequence; the timeout only keeps a broken network from hanging this example.)
let timeout = Task {
    try await Task.sleep(for: .seconds(10))
    laptop.stop()
}
for await event in events {
    event.apply(to: &rows)
    print("\(event.origin): \(event.change)")  // remote from <the phone's replica ID>: -[] +[0, 1] ~[] *[]
    if rows.count == 2 { break }
}
timeout.cancel()
print(rows.map(\.value))  // ["milk", "eggs"]
precondition(rows.map(\.value) == ["milk", "eggs"])

phone.stop()  // sends CLOSE, closes every socket, ends the peer's event-loop thread
laptop.stop()
