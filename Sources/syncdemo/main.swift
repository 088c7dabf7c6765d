import Foundation
import ListSync

// An in-process demo of two replicas of a list of places editing concurrently and merging.
// (The networked, multi-replica CLI replaces it later.)

let version = "0.1.0"
let arguments = CommandLine.arguments.dropFirst()
if arguments.contains("-h") || arguments.contains("--help") {
    print(
        """
        OVERVIEW: Shows two ListSync replicas editing one list concurrently, then converging.

        USAGE: syncdemo [--help] [--version]

        OPTIONS:
          -h, --help    Show this help.
          --version     Show the version.
        """)
    exit(0)
}
if arguments.contains("--version") {
    print("syncdemo \(version)")
    exit(0)
}
if let unknown = arguments.first {
    FileHandle.standardError.write(Data("syncdemo: unknown argument '\(unknown)'; try 'syncdemo --help'\n".utf8))
    exit(64)
}

let phone = ReplicatedList<String>(replicaID: ReplicaID(0x1111))
let laptop = ReplicatedList<String>(replicaID: ReplicaID(0x2222))
var bytesExchanged = 0

/// Sends what `to` lacks from `from`, through the binary encoding, and returns the batch `to` applied.
@discardableResult
@MainActor
func sync(_ from: ReplicatedList<String>, to: ReplicatedList<String>) throws -> ListChange {
    let bytes = from.changes(since: to.versionVector).encoded()
    bytesExchanged += bytes.count
    return try to.merge(ChangeSet(decoding: bytes))
}

/// The offsets of the rows named `names` in `list`.
func offsets(of names: String..., in list: ReplicatedList<String>) -> IndexSet {
    IndexSet(names.compactMap { name in list.firstIndex { $0.value == name } })
}

@MainActor
func show(_ title: String) {
    print("\n== \(title)")
    let width = 22
    print("phone".padding(toLength: width, withPad: " ", startingAt: 0) + "laptop")
    for index in 0..<max(phone.count, laptop.count) {
        let left = index < phone.count ? "\(index). \(phone[index].value)" : ""
        let right = index < laptop.count ? "\(index). \(laptop[index].value)" : ""
        print(left.padding(toLength: width, withPad: " ", startingAt: 0) + right)
    }
}

do {
    let start = Date()
    phone.append(contentsOf: ["Paris", "Rome", "Tokyo", "Lima", "Oslo", "Cairo"])
    try sync(phone, to: laptop)
    show("1. Phone creates six places and syncs")

    phone.move(fromOffsets: offsets(of: "Rome", in: phone), toOffset: 0)
    laptop.move(fromOffsets: offsets(of: "Rome", in: laptop), toOffset: laptop.count)
    show("2. Offline, both drag Rome: phone to the top, laptop to the bottom")
    try sync(phone, to: laptop)
    let toPhone = try sync(laptop, to: phone)
    show(
        "   After syncing, Rome is in one place: the laptop's move wins (same Lamport time, higher replica ID); phone's batch \(toPhone)"
    )

    phone.move(fromOffsets: offsets(of: "Tokyo", in: phone), toOffset: 0)
    laptop.remove(atOffsets: offsets(of: "Tokyo", in: laptop))
    show("3. Phone moves Tokyo to the top while laptop deletes it")
    try sync(phone, to: laptop)
    try sync(laptop, to: phone)
    show("   After syncing: the delete wins")

    phone.move(fromOffsets: offsets(of: "Lima", "Oslo", "Rome", in: phone), toOffset: 0)
    laptop.insert(contentsOf: ["Quito", "Hanoi"], at: 2)
    laptop.updateValue("Lima, Peru", at: offsets(of: "Lima", in: laptop).first!)
    show("4. Phone drags Lima, Oslo and Rome to the top; laptop inserts two places and renames Lima")
    try sync(phone, to: laptop)
    try sync(laptop, to: phone)
    show("   After syncing: the dragged block stays together, in order")

    let converged = phone.map(\.value) == laptop.map(\.value) && phone.map(\.id) == laptop.map(\.id)
    let milliseconds = Int(Date().timeIntervalSince(start) * 1000)
    print(
        "\n\(converged ? "converged" : "NOT converged"): 2 replicas, \(phone.count) rows, \(bytesExchanged) bytes exchanged, \(milliseconds) ms"
    )
    exit(converged ? 0 : 1)
} catch {
    FileHandle.standardError.write(Data("syncdemo: \(error)\n".utf8))
    exit(1)
}
