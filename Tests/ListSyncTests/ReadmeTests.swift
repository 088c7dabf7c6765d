import Foundation
import Testing

/// The README's usage example is the QuickStart example verbatim, so it compiles and runs in CI.
struct ReadmeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func readmeQuotesQuickStart() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let example = try String(
            contentsOf: Self.root.appendingPathComponent("Examples/QuickStart/main.swift"), encoding: .utf8)
        #expect(readme.contains("```swift\n" + example + "```"))
    }

    @Test func readmeQuotesPlacesList() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let example = try String(
            contentsOf: Self.root.appendingPathComponent("Examples/PlacesList/main.swift"), encoding: .utf8)
        #expect(readme.contains("## Drag and drop") && readme.contains("```swift\n" + example + "```"))
    }

    @Test func readmeOpensWithTheTwoCommands() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let firstBlock = try #require(readme.components(separatedBy: "```").dropFirst().first)
        #expect(firstBlock.contains("swift run syncdemo") && firstBlock.contains("swift test"))
    }
}
