import Foundation
import Testing

/// The README's code examples are the examples' sources verbatim, so they compile and run in CI.
struct ReadmeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test(arguments: ["QuickStart", "PlacesList", "NetworkSync", "SavedAndSynced", "ObservingChanges"])
    func readmeQuotesExampleVerbatim(example: String) throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(
            contentsOf: Self.root.appendingPathComponent("Examples/\(example)/main.swift"), encoding: .utf8)
        #expect(readme.contains("```swift\n" + source + "```"))
    }

    @Test func readmeOpensWithTheTwoCommands() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let firstBlock = try #require(readme.components(separatedBy: "```").dropFirst().first)
        #expect(firstBlock.contains("swift run syncdemo") && firstBlock.contains("swift test"))
    }
}
