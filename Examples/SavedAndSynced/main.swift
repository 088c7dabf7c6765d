import Foundation
import ListSync
import ListSyncNetwork
import ListSyncStore

// A list that is saved and synced: the store is the replica the phone's peer serves.
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("groceries-\(UUID())").path
let settings = SyncSettings(document: "groceries", secret: Array("a secret the two devices share".utf8))
var store: DurableReplica<String>? = try DurableReplica<String>(directory: directory)
let phone = try SyncPeer(replica: store!, configuration: PeerConfiguration(sync: settings))
let laptop = try SyncPeer(replica: ReplicatedList<String>(), configuration: PeerConfiguration(sync: settings))
laptop.connect(to: try phone.listen(on: Endpoint(host: "127.0.0.1", port: 0)))
let phoneEvents = phone.changeEvents()
let laptopEvents = laptop.changeEvents()
// A stopped peer ends its sequences of events: the watchdog keeps a broken network from hanging this.
let watchdog = Task {
    try await Task.sleep(for: .seconds(10))
    phone.stop()
    laptop.stop()
}

/// Applies `events` to their initial rows until there are `count` rows; prints each event.
func rows(of events: ChangeEvents<String>, untilThereAre count: Int) async -> [String] {
    var rows = events.initialRows
    for await event in events {
        event.apply(to: &rows)
        print("\(event.origin): \(event.change)")
        if rows.count == count { break }
    }
    return rows.map(\.value)
}

// One transaction: two edits, one log record (fsynced before `edit` returns), one change set sent,
// and one event whose batch combines both edits.
try phone.edit { list in
    list.append(contentsOf: ["Milk", "Eggs"])
    list.move(from: 1, to: 0)
}
print(await rows(of: laptopEvents, untilThereAre: 2))  // ["Eggs", "Milk"]

// A change from the laptop is logged by the phone's store before the phone acknowledges it.
laptop.edit { list in list.append("Tea") }
let shown = await rows(of: phoneEvents, untilThereAre: 3)
print(shown)  // ["Eggs", "Milk", "Tea"]
watchdog.cancel()
phone.stop()
laptop.stop()

// Reopened, the store holds what arrived from the laptop too.
try store?.close()
store = nil
let reopened = try DurableReplica<String>(directory: directory)
print(reopened.read { list in list.map(\.value) })  // ["Eggs", "Milk", "Tea"]
precondition(reopened.read { list in list.map(\.value) } == shown && shown == ["Eggs", "Milk", "Tea"])
try reopened.close()
try FileManager.default.removeItem(atPath: directory)
