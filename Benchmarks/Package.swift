// swift-tools-version: 6.0
import PackageDescription

// A separate package so the library stays dependency-free. One scenario source
// (Sources/RippleScenarios/Scenarios.swift) is compiled twice: against Ripple, and — through the
// symlink in Sources/OpenCombineScenarios, with OPENCOMBINE defined — against OpenCombine, so both
// run exactly the same code.
let package = Package(
    name: "RippleBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Ripple", path: ".."),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    ],
    targets: [
        .target(name: "CMallocInfo"),
        .target(name: "BenchHarness", dependencies: ["CMallocInfo"]),
        .target(
            name: "RippleScenarios",
            dependencies: ["BenchHarness", .product(name: "Ripple", package: "Ripple")]),
        .target(
            name: "OpenCombineScenarios",
            dependencies: ["BenchHarness", .product(name: "OpenCombine", package: "OpenCombine")],
            swiftSettings: [.define("OPENCOMBINE")]),
        .target(name: "ObservationScenarios", dependencies: ["BenchHarness"]),
        .target(
            name: "UIScenarios",
            dependencies: [
                "BenchHarness", .product(name: "RippleUI", package: "Ripple"),
                .product(name: "RippleObservation", package: "Ripple"),
            ]),
        .executableTarget(
            name: "RippleBenchmarks",
            dependencies: [
                "BenchHarness", "RippleScenarios", "OpenCombineScenarios", "ObservationScenarios", "UIScenarios",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
