import Foundation
import ListSync
import ListSyncLibrary
import ListSyncNetwork

// Many lists saved in one directory and synced over one port, each list with its own secret.
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lists-\(UUID())").path
let groceries = SyncSettings(document: "groceries", secret: Array("the groceries list's secret".utf8))
let chores = SyncSettings(document: "chores", secret: Array("the chores list's own secret".utf8))

// The phone keeps both lists in a synced library: one store each, one peer for all of them.
let phone = try SyncedLibrary<String>(directory: directory)
let phoneGroceries = try phone.create(groceries)
let phoneChores = try phone.create(chores)
let port = try phone.listen(on: Endpoint(host: "127.0.0.1", port: 0))

// The laptop holds the same two lists in memory and dials the phone's one port for each.
let laptop = try SyncPeer(replica: ReplicatedList<String>(), configuration: PeerConfiguration(sync: groceries))
let laptopChores = try laptop.addDocument(ReplicatedList<String>(), settings: chores)
laptop.connect(to: port)
try laptopChores.connect(to: port)
let laptopGroceriesEvents = laptop.changeEvents()
let laptopChoresEvents = try laptopChores.changeEvents()
// A stopped peer ends its sequences of events: the watchdog keeps a broken network from hanging this.
let watchdog = Task {
    try await Task.sleep(for: .seconds(10))
    laptop.stop()
    try phone.stop()
}

/// The rows of `events` once they changed (or as they were, if the peer stopped first).
func rowsOnceChanged(_ events: ChangeEvents<String>) async -> [String] {
    var rows = events.initialRows
    if await events.waitForEvents() {
        for event in events.takeAvailable() { event.apply(to: &rows) }
    }
    return rows.map(\.value)
}

// Each edit is logged in its own store and reaches the laptop's copy of that list only.
try phoneGroceries.edit { $0.append("Milk") }
try phoneChores.edit { $0.append("Sweep") }
print(await rowsOnceChanged(laptopGroceriesEvents))  // ["Milk"]
print(await rowsOnceChanged(laptopChoresEvents))  // ["Sweep"]
print(phone.connections.compactMap(\.document).sorted())  // ["chores", "groceries"]: one port

// Done with the chores: both stop syncing them (the groceries connection stays), then the phone deletes
// them from its library (closing them first).
laptop.removeDocument(laptopChores)
try phone.delete("chores")
let kept = try phone.documentIDs
print(kept)  // ["groceries"]
precondition(kept == ["groceries"] && laptop.liveConnectionCount == 1)

watchdog.cancel()
laptop.stop()
try phone.stop()  // closes the connections and every store, and releases the directory
try FileManager.default.removeItem(atPath: directory)
