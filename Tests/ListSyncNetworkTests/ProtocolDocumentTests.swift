import Foundation
import Testing

/// Protocol.md's worked example is a real session, regenerated here.
struct ProtocolDocumentTests {
    /// The package root.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func workedExampleMatchesTheImplementation() throws {
        let dump = try SessionDump.render()
        let document = try String(contentsOf: Self.root.appendingPathComponent("Protocol.md"), encoding: .utf8)
        let contained = document.contains("```\n" + dump + "\n```")
        if !contained, ProcessInfo.processInfo.environment["LISTSYNC_PRINT_DUMP"] != nil { print(dump) }
        #expect(contained, "Protocol.md section 2.10 is stale; LISTSYNC_PRINT_DUMP=1 prints the current dump")
    }

    @Test func sessionIsDeterministic() throws {
        #expect(try SessionDump.render() == SessionDump.render())
    }
}
