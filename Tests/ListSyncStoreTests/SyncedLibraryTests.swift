import Foundation
import ListSync
import ListSyncLibrary
import ListSyncNetwork
import ListSyncStore
import TestSupport
import Testing

/// Two synced libraries: every open document syncs over one port with its own secret, any document can
/// be closed, deleted or reopened while the others go on, and what arrived is still there after a stop.
@Suite(.timeLimit(.minutes(1)))
struct SyncedLibraryTests {
    static let groceries = SyncSettings(document: "groceries", secret: Array("the groceries list's secret".utf8))
    static let chores = SyncSettings(document: "chores", secret: Array("the chores list's own secret".utf8))

    static func configuration() -> PeerConfiguration {
        var configuration = PeerConfiguration()
        configuration.reconnectInitialDelay = .milliseconds(50)
        configuration.reconnectMaximumDelay = .milliseconds(200)
        configuration.log = { _ in }
        return configuration
    }

    /// The rows of `document`; none once it is closed.
    static func rows(_ document: SyncDocument<DurableReplica<String>>) -> [String] {
        (try? document.read { $0.map(\.value) }) ?? []
    }

    @Test func documentsSyncComeAndGoAndAreKept() async throws {
        let directory = try TemporaryDirectory()
        var phone = try SyncedLibrary<String>(directory: directory.file("phone"), configuration: Self.configuration())
        let laptop = try SyncedLibrary<String>(directory: directory.file("laptop"), configuration: Self.configuration())
        defer { try? laptop.stop() }
        let phoneGroceries = try phone.create(Self.groceries)
        let phoneChores = try phone.create(Self.chores)
        let laptopGroceries = try laptop.create(Self.groceries)
        let laptopChores = try laptop.create(Self.chores)
        let endpoint = try laptop.listen(on: .loopbackIPv4())
        try phoneGroceries.connect(to: endpoint)
        try phoneChores.connect(to: endpoint)
        try phoneGroceries.edit { $0.append("Milk") }
        try laptopChores.edit { $0.append("Sweep") }
        #expect(await eventually { Self.rows(laptopGroceries) == ["Milk"] && Self.rows(phoneChores) == ["Sweep"] })
        #expect(phone.documents.map(\.settings.documentName) == ["chores", "groceries"])
        #expect(laptop.connections.compactMap(\.document).sorted() == ["chores", "groceries"])
        // Open again with the same settings: the same handle; with another secret: refused.
        #expect(try phone.open(Self.groceries).settings == Self.groceries)
        let otherSecret = SyncSettings(document: "groceries", secret: Array("someone else's secret".utf8))
        #expect(throws: SyncPeerError.documentAlreadySynced("groceries")) { try phone.open(otherSecret) }
        #expect(throws: StoreError.documentExists("chores")) { try phone.create(Self.chores) }

        // The laptop closes the chores: the groceries go on, and the chores are kept in its library.
        try laptop.close("chores")
        #expect(throws: SyncPeerError.documentRemoved("chores")) { try laptopChores.edit { $0.append("Dust") } }
        #expect(await eventually { phoneChores.liveConnectionCount == 0 })
        try phoneGroceries.edit { $0.append("Eggs") }
        #expect(await eventually { Self.rows(laptopGroceries) == ["Milk", "Eggs"] })
        #expect(try laptop.documentIDs == ["chores", "groceries"])
        // Reopened, the chores sync again (the phone redials them).
        let reopened = try laptop.open(Self.chores)
        try phoneChores.edit { $0.append("Dust") }
        phone.reconnectNow()
        #expect(await eventually { Self.rows(reopened) == ["Sweep", "Dust"] })

        // After a stop, the phone's library holds what arrived; a deleted document is gone.
        try phone.stop()
        try phone.stop()
        #expect(throws: StoreError.closed) { try phone.create(Self.groceries) }
        phone = try SyncedLibrary<String>(directory: directory.file("phone"), configuration: Self.configuration())
        defer { try? phone.stop() }
        #expect(try phone.documentIDs == ["chores", "groceries"] && phone.documents.isEmpty)
        #expect(Self.rows(try phone.open(Self.groceries)) == ["Milk", "Eggs"])
        #expect(Self.rows(try phone.open(Self.chores)) == ["Sweep", "Dust"])
        try phone.delete("chores")
        #expect(try phone.documentIDs == ["groceries"])
        #expect(phone.documents.map(\.settings.documentName) == ["groceries"])
        #expect(throws: StoreError.noSuchDocument("chores")) { try phone.open(Self.chores) }
    }

    /// A library dropped without a stop stops its peer and closes its stores: the directory and its
    /// documents open again at once.
    @Test func aDroppedLibraryReleasesItsDocuments() throws {
        let directory = try TemporaryDirectory()
        var library: SyncedLibrary<String>? = try SyncedLibrary(
            directory: directory.file("phone"), configuration: Self.configuration())
        try library?.create(Self.groceries).edit { $0.append("Milk") }
        library = nil
        let reopened = try SyncedLibrary<String>(
            directory: directory.file("phone"), configuration: Self.configuration())
        defer { try? reopened.stop() }
        #expect(Self.rows(try reopened.open(Self.groceries)) == ["Milk"])
    }
}
