import Foundation
import ListSync
import ListSyncStore
import Testing

/// Many documents in one directory: create, open, list and delete, across reopening and interrupted
/// work, and everything the library cannot read kept as it is.
struct DocumentLibraryTests {
    /// The names in `path`, sorted.
    static func names(_ path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }

    @Test func documentsAreCreatedListedReopenedAndDeleted() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("library")
        var library = try DocumentLibrary<String>(directory: path)
        #expect(try library.documentIDs == [])
        let ids = ["groceries", "chores/kitchen", "ünïcödé ✓", String(repeating: "x", count: 255)]
        for id in ids {
            let store = try library.create(id)
            try store.update { $0.append("row of \(id.prefix(20))") }
            try store.close()
        }
        #expect(try library.documentIDs == ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(try library.unreadable == [])
        try library.close()
        #expect(throws: StoreError.closed) { try library.documentIDs }

        library = try DocumentLibrary<String>(directory: path)
        for id in ids {
            let store = try library.open(id)
            #expect(store.read { $0.map(\.value) } == ["row of \(id.prefix(20))"])
            try store.close()
        }
        try library.delete("groceries")
        #expect(try !library.documentIDs.contains("groceries"))
        #expect(throws: StoreError.noSuchDocument("groceries")) { try library.open("groceries") }
        #expect(throws: StoreError.noSuchDocument("groceries")) { try library.delete("groceries") }
        // Deleted for good: created again, it starts empty.
        let again = try library.create("groceries")
        #expect(again.read { $0.count } == 0)
        try again.close()
        try library.close()
    }

    @Test func requestsThatCannotWorkAreRefusedAndChangeNothing() throws {
        let directory = try TemporaryDirectory()
        let library = try DocumentLibrary<String>(directory: directory.file("library"))
        let open = try library.create("groceries")
        try open.update { $0.append("milk") }
        #expect(throws: StoreError.documentExists("groceries")) { try library.create("groceries") }
        #expect(throws: StoreError.invalidDocumentID("")) { try library.create("") }
        let long = String(repeating: "y", count: 256)
        #expect(throws: StoreError.invalidDocumentID(long)) { try library.create(long) }
        #expect(throws: StoreError.noSuchDocument("chores")) { try library.open("chores") }
        // An open document is neither opened twice nor deleted.
        do throws(StoreError) {
            _ = try library.open("groceries")
            Issue.record("opened twice")
        } catch {
            guard case .locked = error else { throw error }
        }
        do throws(StoreError) {
            try library.delete("groceries")
            Issue.record("deleted while open")
        } catch {
            guard case .locked = error else { throw error }
        }
        #expect(try library.documentIDs == ["groceries"])
        try open.close()
        let reopened = try library.open("groceries")
        #expect(reopened.read { $0.map(\.value) } == ["milk"])
        try reopened.close()
        // One library object owns the directory.
        #expect(throws: StoreError.locked(path: library.directory)) {
            try DocumentLibrary<String>(directory: library.directory)
        }
    }

    @Test func whatTheLibraryCannotReadIsKeptAndReported() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("library")
        let library = try DocumentLibrary<String>(directory: path)
        try library.create("groceries").close()
        let manager = FileManager.default
        try Data("mine".utf8).write(to: URL(fileURLWithPath: path + "/notes.txt"))
        try manager.createDirectory(atPath: path + "/photos", withIntermediateDirectories: false)
        // A document whose ID file is damaged.
        try library.create("chores").close()
        let choresPath = path + "/" + (try #require(try Self.documentName(of: "chores", in: path)))
        try Data("garbled".utf8).write(to: URL(fileURLWithPath: choresPath + "/id"))
        // A document holding a file the library never wrote.
        try library.create("garden").close()
        let garden = try #require(try Self.documentName(of: "garden", in: path))
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: path + "/" + garden + "/store/notes.txt"))

        #expect(try library.documentIDs == ["garden", "groceries"])
        let unreadable = try library.unreadable
        #expect(unreadable.map(\.path).sorted() == [choresPath, path + "/notes.txt", path + "/photos"])
        #expect(unreadable.first { $0.path == choresPath }?.reason == "a document whose ID file is missing or damaged")
        #expect(unreadable.first { $0.path.hasSuffix("notes.txt") }?.reason == "not written by the library")
        #expect(throws: StoreError.notAReplica(path: path + "/" + garden)) { try library.delete("garden") }
        // Nor one holding a damaged file that salvage set aside.
        let groceries = try #require(try Self.documentName(of: "groceries", in: path))
        let damaged = path + "/" + groceries + "/store/snapshot.damaged-1"
        try Data("unreadable".utf8).write(to: URL(fileURLWithPath: damaged))
        #expect(throws: StoreError.notAReplica(path: path + "/" + groceries)) { try library.delete("groceries") }
        #expect(FileManager.default.fileExists(atPath: damaged))
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: path + "/" + garden + "/store/notes.txt")) == Data("keep me".utf8)
        )
        // A damaged document is neither opened nor created over.
        do throws(StoreError) {
            _ = try library.create("chores")
            Issue.record("created over a damaged document")
        } catch {
            guard case .corrupt(let file, _, _) = error, file == choresPath + "/id" else { throw error }
        }
        try library.close()
        _ = try DocumentLibrary<String>(directory: path)
        #expect(try Self.names(path).contains("notes.txt") && Self.names(path).contains("photos"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: choresPath + "/id")) == Data("garbled".utf8))
    }

    @Test func aDirectoryOfOtherFilesIsNotALibraryAndIsNotWrittenTo() throws {
        let directory = try TemporaryDirectory()
        try Data("hello".utf8).write(to: URL(fileURLWithPath: directory.file("notes.txt")))
        #expect(throws: StoreError.notALibrary(path: directory.path)) {
            try DocumentLibrary<String>(directory: directory.path)
        }
        #expect(try Self.names(directory.path) == ["notes.txt"])
        #expect(throws: StoreError.notALibrary(path: directory.file("notes.txt"))) {
            try DocumentLibrary<String>(directory: directory.file("notes.txt"))
        }
    }

    /// A crash in the middle of a create or a delete leaves a leftover that the next open finishes:
    /// the document is there whole, or not at all.
    @Test func interruptedCreatesAndDeletesAreFinishedOnOpen() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("library")
        try DocumentLibrary<String>(directory: path).close()
        let manager = FileManager.default
        // A create that crashed before its rename: only the ID file.
        let created = path + "/0123456789abcdef0123456789abcdef.new"
        try manager.createDirectory(atPath: created, withIntermediateDirectories: false)
        try Data("half made".utf8).write(to: URL(fileURLWithPath: created + "/id"))
        // A delete that crashed after its rename: a whole document with its store.
        var library = try DocumentLibrary<String>(directory: path)
        let store = try library.create("doomed")
        try store.update { $0.append("gone") }
        try store.close()
        try library.close()
        let doomed = try #require(try Self.documentName(of: "doomed", in: path))
        try manager.moveItem(atPath: path + "/" + doomed, toPath: path + "/" + doomed + ".deleting")

        library = try DocumentLibrary<String>(directory: path)
        #expect(try Self.names(path) == ["LIBRARY", "LOCK"])
        #expect(try library.documentIDs == [] && library.unreadable == [])
    }

    /// The directory of document `id` in the library at `path`, found by its ID file.
    static func documentName(of id: String, in path: String) throws -> String? {
        try names(path).first { name in
            FileManager.default.contents(atPath: path + "/" + name + "/id") == Data(id.utf8)
        }
    }
}
