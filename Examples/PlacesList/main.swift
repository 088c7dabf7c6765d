import ListSync

// Two devices show the same places; each reorders by drag and drop while offline.
let names = ["Paris", "Rome", "Tokyo", "Lima", "Oslo"]
let phone = PlacesModel(replica: ReplicaID(1), names: names)
let laptop = PlacesModel(replica: ReplicaID(2))
try phone.sync(with: laptop)

// The phone drags Tokyo to the top: a move, because the drag comes from this list.
let tokyo = phone.dragItems(for: 2)
print("phone drags", tokyo.map(\.value), "as", tokyo[0].representations.map(\.typeIdentifier.rawValue))
try phone.drop(tokyo.map { DropItem(.dragged($0)) }, at: 0)

// The laptop selects Paris and Lima and drags both to the end; text dropped from another app is added.
laptop.selection = [0, 3]
let both = laptop.dragItems(for: 3).map { DropItem<String>(.dragged($0)) }
let text = DropItem<String>(.data([Representation(typeIdentifier: .utf8PlainText, data: Array("Quito".utf8))]))
try laptop.drop(both + [text], at: laptop.placeNames.count)

try phone.sync(with: laptop)
print("phone: ", phone.placeNames.map(\.value))
print("laptop:", laptop.placeNames.map(\.value))
precondition(phone.placeNames.map(\.value) == laptop.placeNames.map(\.value))
