// swift-tools-version: 6.0
// Combine code ported with zero edits: the sources below were written against Apple's Combine.
// On Apple platforms they use it; everywhere else the one conditional dependency below makes
// `import Combine` resolve to Ripple.
import PackageDescription

let package = Package(
    name: "CombinePort",
    platforms: [.macOS(.v12), .iOS(.v15), .tvOS(.v15), .watchOS(.v8)],
    dependencies: [
        // In your package: .package(url: "https://github.com/OWNER/Ripple", branch: "main")
        .package(name: "Ripple", path: "../..")
    ],
    targets: [
        .target(
            name: "SearchKit",
            dependencies: [
                // The one line a port needs: Ripple's Combine module only where Apple's does not exist.
                .product(
                    name: "Combine", package: "Ripple",
                    condition: .when(platforms: [.linux, .windows, .android, .wasi, .openbsd]))
            ]),
        .testTarget(name: "SearchKitTests", dependencies: ["SearchKit"]),
    ],
    swiftLanguageModes: [.v6]
)
