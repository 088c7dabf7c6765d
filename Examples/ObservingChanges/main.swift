import ListSync
import ListSyncNetwork
import ListSyncUI

let settings = SyncSettings(document: "groceries", secret: Array("a secret the two devices share".utf8))
let phone = try SyncPeer(replica: ReplicatedList<String>(), configuration: PeerConfiguration(sync: settings))
let laptop = try SyncPeer(replica: ReplicatedList<String>(), configuration: PeerConfiguration(sync: settings))
laptop.connect(to: try phone.listen(on: Endpoint(host: "127.0.0.1", port: 0)))

// SwiftUI: an @Observable model on the main actor, for `List` with `ForEach(model.rows)`, `.onMove`
// and `.onDelete`. Its own edits show at once; every other change as soon as it reaches the main actor.
let model = ListModel(peer: phone)
model.append("Milk")
model.insert("Eggs", at: 0)
print("phone:", model.rows.map(\.value))  // phone: ["Eggs", "Milk"]

// UIKit: a closure on the main actor with every change, in order; apply each to the data source's
// rows, then `tableView.performBatchUpdates` with `event.change` (skip the animation for `.local`
// events the table made itself, such as a reorder).
let events = laptop.changeEvents()
var tableRows = events.initialRows
let observation = events.observe { event in
    event.apply(to: &tableRows)
    print("laptop table, \(event.origin): \(event.change)")
}

/// Lets the main actor run the handlers until `condition` holds (or 10 s pass).
func waitUntil(_ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(10)
    while !condition() && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
}
try await waitUntil { tableRows.count == 2 }  // laptop table, remote from <phone>: -[] +[0, 1] ~[] *[]

// Several edits in one transaction: one event, one batch for the rows as they were before.
laptop.edit { list in
    list.move(from: list.count - 1, to: 0)
    list.append("Tea")
}

try await waitUntil { model.rows.count == 3 }  // laptop table, local: -[] +[2] ~[1>0] *[]
print("phone:", model.rows.map(\.value))  // phone: ["Milk", "Eggs", "Tea"]
precondition(model.rows == phone.read { Array($0) } && tableRows == laptop.read { Array($0) })
observation.cancel()
phone.stop()
laptop.stop()
