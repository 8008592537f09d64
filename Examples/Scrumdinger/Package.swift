// swift-tools-version: 6.0
// Apple's Scrumdinger tutorial app, written the way the tutorial writes it: its sources build
// unchanged against SwiftUI (on Apple platforms) and RippleUI (everywhere else), and a test suite
// drives every flow through RippleUI's test API.
import PackageDescription

let package = Package(
    name: "Scrumdinger",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        // In your package: .package(url: "https://github.com/OWNER/Ripple", from: "1.0.0")
        .package(name: "Ripple", path: "../..")
    ],
    targets: [
        // The app's models and views: SwiftUI code; only the import is conditional.
        .target(
            name: "Scrumdinger",
            dependencies: [
                .product(
                    name: "RippleUI", package: "Ripple",
                    condition: .when(platforms: [.linux, .windows, .android, .wasi, .openbsd]))
            ]),
        // `swift run ScrumdingerApp`: launches the app headless and prints its first screen.
        .executableTarget(name: "ScrumdingerApp", dependencies: ["Scrumdinger"]),
        .testTarget(
            name: "ScrumdingerTests",
            dependencies: ["Scrumdinger", .product(name: "RippleUI", package: "Ripple")]),
    ],
    swiftLanguageModes: [.v6]
)
