import Foundation
import ListSync
import Testing

@testable import syncdemo

/// The demo's rows: a text and a check mark stored as one JSON object whose fields merge one by one,
/// rows of earlier versions (bare JSON strings) still read, and the `check`, `uncheck` and `edit` commands.
@Suite struct EntryTests {
    /// A row as earlier versions of syncdemo stored it: its text as a bare JSON string.
    struct EarlierEntry: Codable, Sendable {
        var text: String
        init(from decoder: any Decoder) throws { text = try decoder.singleValueContainer().decode(String.self) }
        init(_ text: String) { self.text = text }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(text)
        }
    }

    /// Two replicas holding the same rows `texts`, the second with the higher replica ID.
    func replicas(_ texts: [String]) throws -> (ReplicatedList<Entry>, ReplicatedList<Entry>) {
        let phone = ReplicatedList<Entry>(replicaID: ReplicaID(1))
        let laptop = ReplicatedList<Entry>(replicaID: ReplicaID(2))
        _ = try phone.run(.add(texts))
        try laptop.merge(phone.changes(since: laptop.versionVector))
        return (phone, laptop)
    }

    /// Sends each replica what the other lacks, through the binary format.
    func sync(_ one: ReplicatedList<Entry>, _ other: ReplicatedList<Entry>) throws {
        let toOther = try ChangeSet(decoding: one.changes(since: other.versionVector).encoded())
        let toOne = try ChangeSet(decoding: other.changes(since: one.versionVector).encoded())
        try other.merge(toOther)
        try one.merge(toOne)
    }

    @Test func aRowIsStoredAsAnObjectOfTextAndCheckMark() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let bytes = try encoder.encode(Entry("Paris", done: true))
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"done":true,"text":"Paris"}"#)
        #expect(try JSONDecoder().decode(Entry.self, from: bytes) == Entry("Paris", done: true))
        #expect(try JSONDecoder().decode(Entry.self, from: Data(#"{"text":"Oslo"}"#.utf8)) == Entry("Oslo"))
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Entry.self, from: Data(#"{"done":true}"#.utf8)) }
    }

    @Test func aRowOfAnEarlierVersionReadsAsUncheckedAndCanBeChecked() throws {
        let earlier = ReplicatedList<EarlierEntry>(replicaID: ReplicaID(1))
        earlier.append(contentsOf: [EarlierEntry("Paris"), EarlierEntry("Rome")])
        let list = ReplicatedList<Entry>(replicaID: ReplicaID(2))
        try list.merge(ChangeSet(decoding: earlier.changes(since: VersionVector()).encoded()))
        #expect(list.map(\.value) == [Entry("Paris"), Entry("Rome")])
        #expect(list.undecodableRows.isEmpty)
        _ = try list.run(.check([.text("Rome")], done: true))
        #expect(list.map(\.value.description) == ["Paris", "✓ Rome"])
    }

    @Test func aCheckAndAConcurrentEditOfTheTextBothSurvive() throws {
        let (phone, laptop) = try replicas(["Buy milk", "Call the plumber"])
        _ = try phone.run(.check([.text("Buy milk")], done: true))
        _ = try laptop.run(.edit(.text("Buy milk"), "Buy oat milk"))
        try sync(phone, laptop)
        for list in [phone, laptop] {
            #expect(list.map(\.value) == [Entry("Buy oat milk", done: true), Entry("Call the plumber")])
        }
        // The other way round: the replica with the higher ID checks the row off.
        _ = try phone.run(.edit(.index(1), "Call the electrician"))
        _ = try laptop.run(.check([.index(1)], done: true))
        try sync(laptop, phone)
        for list in [phone, laptop] { #expect(list[1].value == Entry("Call the electrician", done: true)) }
    }

    @Test func editKeepsTheCheckMarkAndUncheckKeepsTheText() throws {
        let list = ReplicatedList<Entry>(replicaID: ReplicaID(1))
        _ = try list.run(.add(["a", "b", "c"]))
        let checked = try list.run(.check([.index(2), .index(0)], done: true)).change
        #expect(Array(checked.updated) == [0, 2], "one batch for both rows")
        _ = try list.run(.edit(.index(0), "A"))
        #expect(list.map(\.value.description) == ["✓ A", "b", "✓ c"])
        #expect(try list.run(.check([.index(0)], done: true)).change.isEmpty, "already checked: no change")
        _ = try list.run(.check([.text("A")], done: false))
        #expect(list.map(\.value.description) == ["A", "b", "✓ c"])
        #expect(throws: CommandError.self) { try list.run(.check([.index(3)], done: true)) }
        #expect(throws: CommandError.self) { try list.run(.check([.index(1), .index(1)], done: true)) }
    }

    @Test(arguments: [
        (["check"], "usage: check ROWS"), (["uncheck", "a", "b"], "usage: uncheck ROWS"),
    ])
    func checkNeedsOneListOfRows(words: [String], message: String) throws {
        #expect {
            try ListCommand.parse(words)
        } throws: { error in
            (error as? CommandError)?.message.contains(message) == true
        }
        #expect(try ListCommand.parse(["check", "2,Oslo"]) == .check([.index(2), .text("Oslo")], done: true))
        #expect(try ListCommand.parse(["uncheck", "0"]) == .check([.index(0)], done: false))
    }
}
