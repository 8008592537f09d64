// swift-tools-version: 6.1
// Ripple's `Combine` module in one build with a published library built on Combine:
// pointfreeco/combine-schedulers, as released. Its schedulers (`AnyScheduler`, `TestScheduler`,
// `ImmediateScheduler`) drive Combine's operators (`debounce`, `Timer.publish`) in one target.
import PackageDescription

let package = Package(
    name: "Ecosystem",
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8)],
    dependencies: [
        // In your package: .package(url: "https://github.com/OWNER/Ripple", branch: "main")
        .package(name: "Ripple", path: "../.."),
        .package(url: "https://github.com/pointfreeco/combine-schedulers", exact: "1.2.2"),
        // combine-schedulers reaches Combine through OpenCombine's `OpenCombineShim` on Linux. This
        // stand-in (in Ripple's repository) replaces the OpenCombine package in the whole graph:
        // its shim re-exports Ripple's `Combine`, so combine-schedulers is built against the same
        // Combine as this package, whatever order the build takes.
        .package(path: "../../Compatibility/OpenCombine"),
    ],
    targets: [
        .target(
            name: "Feed",
            dependencies: [
                .product(
                    name: "Combine", package: "Ripple",
                    condition: .when(platforms: [.linux, .windows, .android, .wasi, .openbsd])),
                .product(name: "CombineSchedulers", package: "combine-schedulers"),
            ]),
        .testTarget(name: "FeedTests", dependencies: ["Feed"]),
    ],
    swiftLanguageModes: [.v6]
)
