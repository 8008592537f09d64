// swift-tools-version: 6.0
import PackageDescription

// The oracle: seeded random pipelines run through Ripple and through OpenCombine, and their full
// event histories compared. A separate package so the library stays dependency-free. One runner
// source (Sources/RippleRunner/Runner.swift) is compiled twice: against Ripple, and — through the
// symlink in Sources/OpenCombineRunner, with OPENCOMBINE defined — against OpenCombine, so both
// libraries interpret exactly the same pipeline description with exactly the same code.
let package = Package(
    name: "Conformance",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Ripple", path: ".."),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
    ],
    targets: [
        .target(name: "ConformanceModel"),
        .target(
            name: "RippleRunner",
            dependencies: [
                "ConformanceModel", .product(name: "Ripple", package: "Ripple"),
                // TestScheduler, the virtual-time scheduler the time operators run on.
                .product(name: "RippleTesting", package: "Ripple"),
            ]),
        .target(
            name: "OpenCombineRunner",
            dependencies: ["ConformanceModel", .product(name: "OpenCombine", package: "OpenCombine")],
            swiftSettings: [.define("OPENCOMBINE")]),
        .executableTarget(
            name: "Conformance",
            dependencies: ["ConformanceModel", "RippleRunner", "OpenCombineRunner"]),
    ],
    swiftLanguageModes: [.v6]
)
