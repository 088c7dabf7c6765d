import Foundation
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

// Edit through the peer: the change streams to the laptop, which would relay it to its other peers.
phone.edit { list in list.append(contentsOf: ["milk", "eggs"]) }
let deadline = Date().addingTimeInterval(10)
while laptop.read({ list in list.count }) < 2 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
let rows = laptop.read { list in list.map(\.value) }
print(rows)  // ["milk", "eggs"]
precondition(rows == ["milk", "eggs"])

phone.stop()  // sends CLOSE, closes every socket, ends the peer's event-loop thread
laptop.stop()
