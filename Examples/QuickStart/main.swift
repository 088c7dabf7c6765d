import ListSync

let phone = ReplicatedList<String>()
let laptop = ReplicatedList<String>()

phone.append(contentsOf: ["Paris", "Rome", "Tokyo"])
try laptop.merge(phone.changes(since: laptop.versionVector))

// Offline, both edit: the phone drags Tokyo to the top, the laptop deletes Rome.
phone.move(fromOffsets: [2], toOffset: 0)
let change = laptop.remove(at: 1)  // a batch for performBatchUpdates: removed [1]

// Exchange what each side lacks; both converge.
try laptop.merge(phone.changes(since: laptop.versionVector))
try phone.merge(laptop.changes(since: phone.versionVector))

print(phone.map(\.value), change.removed)  // ["Tokyo", "Paris"] [1]
precondition(phone.map(\.value) == laptop.map(\.value))
