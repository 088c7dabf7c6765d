// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ListSync",
    products: [
        .library(name: "ListSync", targets: ["ListSync"]),
        .library(name: "ListSyncStore", targets: ["ListSyncStore"]),
        .executable(name: "syncdemo", targets: ["syncdemo"]),
    ],
    targets: [
        // Core: identities, clocks, position keys, the replicated list, merge, change batches, encoding. Pure.
        .target(name: "ListSync"),
        // Durable storage of a replica: snapshot + append-only log, crash recovery, compaction.
        .target(name: "ListSyncStore", dependencies: ["ListSync"]),
        // The command-line demo.
        .executableTarget(name: "syncdemo", dependencies: ["ListSync"]),
        // Hashing, MACs, key derivation, AEAD and OS randomness. Internal module, not a product.
        .target(name: "ListSyncCrypto", path: "Sources/ListSyncCrypto"),
        // Benchmarks: calls the library from its own module, as an app would.
        .executableTarget(
            name: "listsync-bench", dependencies: ["ListSync", "ListSyncCrypto", "ListSyncStore"],
            path: "Sources/listsync-bench"),
        // Seeded random generators and reference models shared by the test targets.
        .target(name: "TestSupport", dependencies: ["ListSync"], path: "Tests/TestSupport"),
        .testTarget(name: "ListSyncTests", dependencies: ["ListSync", "TestSupport"]),
        .testTarget(name: "ListSyncCryptoTests", dependencies: ["ListSyncCrypto", "ListSync"]),
        // Opens a store and edits it until killed; the crash tests launch it (a dependency, so it is built).
        .executableTarget(
            name: "StoreCrashWorker", dependencies: ["ListSyncStore", "ListSync", "TestSupport"],
            path: "Tests/StoreCrashWorker"),
        .testTarget(
            name: "ListSyncStoreTests", dependencies: ["ListSyncStore", "ListSync", "TestSupport", "StoreCrashWorker"]),
        // Examples a Swift developer would copy from; CI runs each.
        .executableTarget(name: "QuickStart", dependencies: ["ListSync"], path: "Examples/QuickStart", exclude: ["README.md"]),
    ],
    swiftLanguageModes: [.v6]
)
