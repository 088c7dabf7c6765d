// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ListSync",
    products: [
        .library(name: "ListSync", targets: ["ListSync"]),
        .executable(name: "syncdemo", targets: ["syncdemo"]),
    ],
    targets: [
        // Core: identities, clocks, position keys, the replicated list, merge, change batches, encoding. Pure.
        .target(name: "ListSync"),
        // The command-line demo.
        .executableTarget(name: "syncdemo", dependencies: ["ListSync"]),
        // Seeded random generators and reference models shared by the test targets.
        .target(name: "TestSupport", dependencies: ["ListSync"], path: "Tests/TestSupport"),
        .testTarget(name: "ListSyncTests", dependencies: ["ListSync", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
