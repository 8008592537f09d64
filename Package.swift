// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Ripple",
    // Combine's own minimums on Apple platforms (Linux, Windows and Android have none). The core
    // needs nothing newer: on Apple platforms its atomics are C builtins, not `Synchronization`.
    // APIs that need newer systems say so with `@available`: the Observation-based ones (macOS 14 /
    // iOS 17), `AsyncSequence.publisher` (macOS 15 / iOS 18), `ObservedPublisher` (macOS 26 / iOS 26).
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1)],
    products: [
        .library(name: "Ripple", targets: ["Ripple"]),
        .library(name: "RippleObservation", targets: ["RippleObservation"]),
        .library(name: "RippleTesting", targets: ["RippleTesting"]),
        .library(name: "RippleSchedulers", targets: ["RippleSchedulers"]),
        .library(name: "RippleFoundation", targets: ["RippleFoundation"]),
        .library(name: "RippleUI", targets: ["RippleUI"]),
        // For platforms without Combine only: `import Combine` resolves to Ripple (see README, Porting).
        .library(name: "Combine", targets: ["Combine"]),
        .executable(name: "Playground", targets: ["Playground"]),
    ],
    targets: [
        // The Foundation-free core (not a product): Combine's push-stream API, `ObservableObject`
        // and `@Published`, and the engine under them. Exactly Combine's public names (and
        // underscored hooks): the `Combine` module re-exports it whole; Ripple re-exports it too.
        // `Extern` declares the C target's Linux futex functions in Swift instead of importing the C
        // module, so that importing it never requires a C module (Sync/LinuxFutex.swift).
        .target(
            name: "RippleCore", dependencies: ["CRippleSync", "RippleTrackingTypes"],
            swiftSettings: [.enableExperimentalFeature("Extern")]),
        // Ripple's tracking events and phases (not a product), which the core's `@Published` storage
        // hands to observers: below the core, imported by it without re-exporting, so `import Combine`
        // does not see them. Ripple re-exports it.
        .target(name: "RippleTrackingTypes"),
        // Ripple: the core plus Ripple's own additions — pull-based access tracking (`withTracking`,
        // `observe`), diagnostics, the push/pull comparison, `AsyncSequence.publisher`.
        .target(name: "Ripple", dependencies: ["RippleCore", "RippleTrackingTypes"]),
        // Linux's futex calls and a thread-local cache of the thread's kernel ID (declared in Swift,
        // not imported), and the compiler's atomic builtins for the core's atomics on Apple
        // platforms (imported there, and on Linux when built with -DRIPPLE_PORTABLE_ATOMICS).
        .target(name: "CRippleSync"),
        // Bridges to the toolchain's Observation module, kept out of the core.
        .target(name: "RippleObservation", dependencies: ["Ripple"]),
        // Combine's Foundation-side API (not a product): notification and timer publishers, JSON
        // coders, RunLoop and OperationQueue schedulers. Re-exports the core and Foundation.
        .target(name: "RippleFoundationCore", dependencies: ["RippleCore"]),
        // RippleFoundationCore plus Ripple's own Foundation-side additions (a completion-handler
        // bridge). Re-exports Ripple and Foundation.
        .target(name: "RippleFoundation", dependencies: ["Ripple", "RippleFoundationCore"]),
        // SwiftUI's data flow on a headless render tree: State, Binding, StateObject, ObservedObject,
        // Environment.
        .target(name: "RippleUI", dependencies: ["Ripple", "RippleObservation"]),
        // A module named Combine that re-exports RippleCore and RippleFoundationCore — exactly
        // Combine's names — so Combine code builds unchanged where Apple's Combine does not exist.
        // Depend on it conditionally (README, Porting).
        .target(name: "Combine", dependencies: ["RippleCore", "RippleFoundationCore"]),
        // The schedulers a model takes so that tests can inject one — type-erased and immediate
        // schedulers, a timer on any scheduler — in combine-schedulers' shape: kept out of Ripple
        // and Combine so that the two never clash in one build, and out of RippleTesting so that
        // an app or a server links them without a test framework.
        .target(name: "RippleSchedulers", dependencies: ["Ripple"]),
        // Tools for users' tests: recorders, a virtual-time scheduler (Foundation is fine here).
        // Re-exports RippleSchedulers.
        .target(name: "RippleTesting", dependencies: ["Ripple", "RippleSchedulers"]),
        // For the sandbox tests only (not a product): seccomp filters that refuse what Ripple's lock
        // may use, and a program linking Ripple that runs under them.
        .target(name: "CRippleSandbox"),
        .executableTarget(name: "RippleSandboxProbe", dependencies: ["Ripple", "CRippleSandbox"]),
        // Writes the example diagnostics files in Documentation/Diagnostics (README, "Seeing your
        // pipelines"): a marble diagram as SVG, a trace for Perfetto, a live graph.
        .executableTarget(name: "DiagnosticsExamples", dependencies: ["RippleTesting"]),
        .executableTarget(
            name: "Playground", dependencies: ["Ripple", "RippleObservation", "RippleUI"], path: "Playground"),
        .testTarget(name: "RippleTests", dependencies: ["Ripple", "RippleCore", "RippleTesting"]),
        // Runs RippleSandboxProbe (built beside the tests) under those filters.
        .testTarget(name: "RippleSandboxTests", dependencies: ["RippleSandboxProbe"]),
        .testTarget(name: "RippleObservationTests", dependencies: ["Ripple", "RippleCore", "RippleObservation", "RippleTesting"]),
        .testTarget(name: "RippleFoundationTests", dependencies: ["RippleFoundation", "RippleTesting"]),
        .testTarget(name: "RippleUITests", dependencies: ["RippleUI"]),
        .testTarget(name: "RippleTestingTests", dependencies: ["RippleTesting"]),
        .testTarget(name: "CombineCompatibilityTests", dependencies: ["Combine"]),
    ],
    swiftLanguageModes: [.v6]
)
