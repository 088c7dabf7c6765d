import Foundation

/// Executables the package builds, found next to the running test bundle.
public enum BuiltProduct {
    /// Why an executable was not found.
    public struct NotFound: Error, CustomStringConvertible {
        /// Where it was looked for.
        public let description: String
    }

    /// The executable product `name` of this package's build (the test target must depend on it).
    public static func url(named name: String) throws -> URL {
        var starts = [URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).resolvingSymlinksInPath()]
        starts.append(Bundle.main.bundleURL)
        for start in starts {
            var directory = start.deletingLastPathComponent()
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                directory = directory.deletingLastPathComponent()
            }
        }
        throw NotFound(description: "\(name) not found near \(starts.map(\.path))")
    }
}
