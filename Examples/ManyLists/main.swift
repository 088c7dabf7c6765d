import Foundation
import ListSync
import ListSyncNetwork
import ListSyncStore

// Many lists saved in one directory and synced over one port, each list with its own secret.
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lists-\(UUID())").path
let library = try DocumentLibrary<String>(directory: directory)
let groceries = SyncSettings(document: "groceries", secret: Array("the groceries list's secret".utf8))
let chores = SyncSettings(document: "chores", secret: Array("the chores list's own secret".utf8))

// The phone keeps both lists in the library; its peer syncs the first and adds the second.
let groceriesStore = try library.create("groceries")
let phone = try SyncPeer(replica: groceriesStore, configuration: PeerConfiguration(sync: groceries))
let phoneChores = try phone.addDocument(try library.create("chores"), settings: chores)
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
    phone.stop()
    laptop.stop()
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
try phone.edit { $0.append("Milk") }
try phoneChores.edit { $0.append("Sweep") }
print(await rowsOnceChanged(laptopGroceriesEvents))  // ["Milk"]
print(await rowsOnceChanged(laptopChoresEvents))  // ["Sweep"]
print(phone.connections.compactMap(\.document).sorted())  // ["chores", "groceries"]: one port

// Done with the chores: both stop syncing them (the groceries connection stays), then the phone deletes
// them from the library. `removeDocument` hands the store back, still open, so nothing is lost.
guard let choresStore = phone.removeDocument(phoneChores) else { preconditionFailure("chores were synced") }
laptop.removeDocument(laptopChores)
try choresStore.close()
try library.delete("chores")
let kept = try library.documentIDs
print(kept)  // ["groceries"]
precondition(kept == ["groceries"] && laptop.liveConnectionCount == 1)

watchdog.cancel()
phone.stop()
laptop.stop()
try groceriesStore.close()
try library.close()
try FileManager.default.removeItem(atPath: directory)
