import Foundation
import ListSyncStore
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Paths that are not replicas or cannot be read: typed errors that name the path.
struct BadDirectoryTests {
    static let runningAsRoot = getuid() == 0

    @Test func directoryWithForeignFilesIsNotAReplica() throws {
        let directory = try TemporaryDirectory()
        try Data("hello".utf8).write(to: URL(fileURLWithPath: directory.file("notes.txt")))
        #expect(throws: StoreError.notAReplica(path: directory.path)) {
            try DurableReplica<String>(directory: directory.path)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["notes.txt"])
    }

    @Test func regularFileIsNotAReplica() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("file")
        try Data("hello".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: StoreError.notAReplica(path: path)) { try DurableReplica<String>(directory: path) }
    }

    @Test func replicaDataWithoutIdentityIsNotAReplica() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("replica")
        try DurableReplica<String>(directory: path).close()
        try FileManager.default.removeItem(atPath: path + "/replica")
        #expect(throws: StoreError.notAReplica(path: path)) { try DurableReplica<String>(directory: path) }
    }

    @Test func missingParentIsASystemErrorWithThePath() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("missing/replica")
        #expect(throws: StoreError.system(SystemError(function: "mkdir", path: path, errno: ENOENT))) {
            try DurableReplica<String>(directory: path)
        }
    }

    /// Root reads any file whatever its mode, so this variant makes the identity file unreadable by
    /// making it a directory, which `read` refuses for everyone.
    @Test func unreadableIdentityIsASystemErrorWithThePath() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("replica")
        try DurableReplica<String>(directory: path).close()
        try FileManager.default.removeItem(atPath: path + "/replica")
        try FileManager.default.createDirectory(atPath: path + "/replica", withIntermediateDirectories: false)
        #expect(throws: StoreError.system(SystemError(function: "pread", path: path + "/replica", errno: EISDIR))) {
            try DurableReplica<String>(directory: path)
        }
    }

    @Test(.enabled(if: !runningAsRoot, "root ignores permission bits"))
    func unreadableDirectoryIsASystemErrorWithThePath() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("replica")
        try DurableReplica<String>(directory: path).close()
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path) }
        #expect {
            try DurableReplica<String>(directory: path)
        } throws: { error in
            guard case .system(let systemError) = error as? StoreError else { return false }
            return systemError.path.hasPrefix(path) && systemError.errno == EACCES
        }
    }
}
