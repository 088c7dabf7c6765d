import Foundation
import ListSync
import ListSyncStore

// StoreCrashWorker <directory> <seed> <always|batched> <compaction threshold bytes, 0 for none> [hold]
//
// Opens the durable replica in <directory> and edits it with seeded random operations (local inserts,
// moves, deletes and edits, and merges of change sets from an in-memory peer) until it is killed,
// reporting on stdout, one write per line:
//   ready <next operation counter>
//   begin <n> [<change set hex>]               before operation n is handed to the store (with the
//                                              change set when it is a merge from the peer)
//   op <n> <ticket> <change set hex> <highest counter used so far>
//   durable <ticket>                           every operation with this ticket or lower is durable
// With `hold`, it opens the replica, prints `ready` and sleeps (for the lock test).

let arguments = CommandLine.arguments
guard arguments.count >= 5, let seed = UInt64(arguments[2]), let threshold = Int(arguments[4]) else {
    FileHandle.standardError.write(
        Data("usage: StoreCrashWorker <directory> <seed> <always|batched> <bytes> [hold]\n".utf8))
    exit(64)
}
let options = StoreOptions(
    commitPolicy: arguments[3] == "batched" ? .batched(.milliseconds(2)) : .always,
    counterReservationBlock: 16, compactionThreshold: threshold > 0 ? threshold : nil)
do {
    let store = try DurableReplica<String>(directory: arguments[1], options: options)
    emit("ready \(store.read { $0.nextOperationCounter })")
    if arguments.count > 5 && arguments[5] == "hold" {
        while true { sleep(60) }
    }
    var worker = try CrashWorker(store: store, seed: seed)
    try await worker.run(operations: 200_000)
    try store.close()
} catch {
    FileHandle.standardError.write(Data("StoreCrashWorker: \(error)\n".utf8))
    exit(1)
}
