// swift-tools-version: 6.0
import PackageDescription

// The interleaving explorer over the engine's real code (Documentation/Engine.md, "The explorer").
// A separate package, like Benchmarks/: its RippleCore target (in Sources/RippleEngine) compiles
// the engine's folders (Sync/, Core/, Subscribers/, Subjects/, Tracking/, ObservableObject/ of
// Sources/RippleCore, through symlinks: the same source files) with RIPPLE_EXPLORER defined,
// which routes the lock, the turn waiter's park and wake through the explorer's hooks
// (Sync/ExplorerSeam.swift). The module is named RippleCore, as the shipped one, so the sources
// compile unchanged. Only those folders, so a planted mutation rebuilds in seconds.
let package = Package(
    name: "RippleCheckers",
    targets: [
        .target(name: "CRippleSync"),
        .target(name: "RippleTrackingTypes"),
        .target(
            name: "RippleCore", dependencies: ["CRippleSync", "RippleTrackingTypes"], path: "Sources/RippleEngine",
            swiftSettings: [.define("RIPPLE_EXPLORER"), .enableExperimentalFeature("Extern")]),
        .executableTarget(name: "Explorer", dependencies: ["RippleCore"]),
    ],
    swiftLanguageModes: [.v6]
)
