import ListSync

// The office and a laptop share the client list.
let office = ReplicatedList<ContactCard>(replicaID: ReplicaID(1))
let laptop = ReplicatedList<ContactCard>(replicaID: ReplicaID(2))
office.append(contentsOf: ["Grace Hopper", "Alan Turing", "Edsger Dijkstra"].map { ContactCard(formattedName: $0) })
try laptop.merge(office.changes(since: laptop.versionVector))
let policy = DropPolicy(loadingValue: ContactCard(formattedName: "Loading…"))
func names(_ list: ReplicatedList<ContactCard>) -> [String] {
    list.map { ($0.isPending ? "⏳ " : "") + $0.value.formattedName }
}

// Three contacts dropped from another app between Alan and Edsger: their data loads asynchronously.
let incoming = [
    IncomingContact(ContactCard(formattedName: "Ada Lovelace", phones: ["+44 20 7946 0000"])),
    IncomingContact(nil),  // this transfer will fail
    IncomingContact(ContactCard(formattedName: "Katherine Johnson", emails: ["kj@nasa.example"])),
]
let items = incoming.map(\.item)
let proposal = office.dropProposal(for: items, at: .gap(2), policy: policy)
let drop = try office.performDrop(items, proposal: proposal, policy: policy)
print("dropped (\(proposal.operation)):", names(office), "batch", drop.change)
let loading = Task { @MainActor in
    await office.completeLoads(drop.pendingLoads) { outcome, change in
        print("load \(outcome.placeholder):", outcome, "batch", change)
    }
}

// Meanwhile the laptop adds a client at the top and removes both contacts around the drop.
laptop.insert(ContactCard(formattedName: "Barbara Liskov"), at: 0)
laptop.remove(atOffsets: [2, 3])
print("office merges the laptop:", try office.merge(laptop.changes(since: office.versionVector)))
print("while loading:", names(office))

for contact in incoming { contact.release() }
await loading.value
print("after loading:", names(office))

// A malformed vCard is rejected with its typed error; nothing is inserted.
let broken = Representation(typeIdentifier: .vCard, data: Array("BEGIN:VCARD\nVERSION:4.0\nN:Nobody\nEND:VCARD".utf8))
do {
    let items = [DropItem<ContactCard>(.data([broken]))]
    _ = try office.performDrop(
        items, proposal: office.dropProposal(for: items, at: .gap(0), policy: policy), policy: policy)
} catch {
    print("rejected:", error)
}

try laptop.merge(office.changes(since: laptop.versionVector))
print("office:", names(office))
print("laptop:", names(laptop))
precondition(office.map(\.value) == laptop.map(\.value) && office.pendingCount == 0)
