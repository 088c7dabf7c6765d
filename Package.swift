// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "ListSync",
    // The standard library's `Mutex` (module Synchronization), used by the core, the store and the network,
    // sets these minimums; `Duration` (iOS 16) and Observation (iOS 17) are older.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "ListSync", targets: ["ListSync"]),
        .library(name: "ListSyncStore", targets: ["ListSyncStore"]),
        .library(name: "ListSyncNetwork", targets: ["ListSyncNetwork"]),
        .library(name: "ListSyncLibrary", targets: ["ListSyncLibrary"]),
        .library(name: "ListSyncUI", targets: ["ListSyncUI"]),
        .executable(name: "syncdemo", targets: ["syncdemo"]),
    ],
    targets: [
        // Core: identities, clocks, position keys, the replicated list, merge, change batches, encoding. Pure.
        .target(name: "ListSync", dependencies: ["CListSyncPrefetch"]),
        // A cache prefetch hint, which Swift does not expose (a C header with one inline function).
        .target(name: "CListSyncPrefetch"),
        // Durable storage of a replica: snapshot + append-only log, crash recovery, compaction; a directory of them.
        .target(name: "ListSyncStore", dependencies: ["ListSync", "ListSyncCrypto"]),
        // The command-line demo.
        .executableTarget(name: "syncdemo", dependencies: ["ListSync", "ListSyncNetwork", "ListSyncStore"]),
        // Hashing, MACs, key derivation, AEAD and OS randomness. Internal module, not a product.
        .target(name: "ListSyncCrypto", path: "Sources/ListSyncCrypto"),
        // Benchmarks: calls the library from its own module, as an app would.
        .executableTarget(
            name: "listsync-bench", dependencies: ["ListSync", "ListSyncCrypto", "ListSyncStore", "ListSyncNetwork"],
            path: "Sources/listsync-bench"),
        // Sync over TCP: a transport-free sync core (handshake, anti-entropy, relay) and a BSD-socket adapter.
        .target(name: "ListSyncNetwork", dependencies: ["ListSync", "ListSyncCrypto"]),
        // Many lists saved in one directory and synced by one peer: a document library and its peer.
        .target(name: "ListSyncLibrary", dependencies: ["ListSync", "ListSyncStore", "ListSyncNetwork"]),
        // For apps: an observable list model for SwiftUI and a table view model for UIKit, over a sync peer.
        .target(name: "ListSyncUI", dependencies: ["ListSync", "ListSyncNetwork"]),
        // Seeded random generators and reference models shared by the test targets.
        .target(name: "TestSupport", dependencies: ["ListSync"], path: "Tests/TestSupport"),
        .testTarget(name: "ListSyncTests", dependencies: ["ListSync", "TestSupport"]),
        .testTarget(name: "ListSyncCryptoTests", dependencies: ["ListSyncCrypto", "ListSync"]),
        .testTarget(name: "ListSyncNetworkTests", dependencies: ["ListSyncNetwork", "ListSync", "TestSupport"]),
        .testTarget(
            name: "ListSyncUITests", dependencies: ["ListSyncUI", "ListSync", "ListSyncNetwork", "ListSyncStore", "TestSupport"]),
        // Runs the built syncdemo binary as a subprocess (a dependency, so it is built).
        .testTarget(name: "SyncDemoTests", dependencies: ["syncdemo", "TestSupport"]),
        // Opens a store and edits it until killed; the crash tests launch it (a dependency, so it is built).
        .executableTarget(
            name: "StoreCrashWorker", dependencies: ["ListSyncStore", "ListSync", "TestSupport"],
            path: "Tests/StoreCrashWorker"),
        .testTarget(
            name: "ListSyncStoreTests",
            dependencies: [
                "ListSyncStore", "ListSync", "ListSyncNetwork", "ListSyncLibrary", "TestSupport", "StoreCrashWorker",
            ]),
        // Examples a Swift developer would copy from; CI runs each.
        .executableTarget(name: "QuickStart", dependencies: ["ListSync"], path: "Examples/QuickStart", exclude: ["README.md"]),
        .executableTarget(name: "PlacesList", dependencies: ["ListSync"], path: "Examples/PlacesList", exclude: ["README.md"]),
        .executableTarget(name: "ClientList", dependencies: ["ListSync"], path: "Examples/ClientList", exclude: ["README.md"]),
        .executableTarget(
            name: "NetworkSync", dependencies: ["ListSync", "ListSyncNetwork"], path: "Examples/NetworkSync",
            exclude: ["README.md"]),
        .executableTarget(
            name: "SavedAndSynced", dependencies: ["ListSync", "ListSyncNetwork", "ListSyncStore"],
            path: "Examples/SavedAndSynced", exclude: ["README.md"]),
        .executableTarget(
            name: "ManyLists", dependencies: ["ListSync", "ListSyncLibrary", "ListSyncNetwork"],
            path: "Examples/ManyLists", exclude: ["README.md"]),
        .executableTarget(
            name: "ObservingChanges", dependencies: ["ListSync", "ListSyncNetwork", "ListSyncUI"],
            path: "Examples/ObservingChanges", exclude: ["README.md"]),
        // A SwiftUI view over ListModel; empty except on Apple platforms.
        .target(
            name: "SwiftUIList", dependencies: ["ListSync", "ListSyncNetwork", "ListSyncUI"],
            path: "Examples/SwiftUIList", exclude: ["README.md"]),
        // UITableViewDragDelegate and UITableViewDropDelegate over ListSync; empty except on Apple platforms.
        .target(
            name: "UIKitAdapter", dependencies: ["ListSync", "ListSyncNetwork", "ListSyncUI"],
            path: "Examples/UIKitAdapter", exclude: ["README.md"]),
    ],
    swiftLanguageModes: [.v6]
)
