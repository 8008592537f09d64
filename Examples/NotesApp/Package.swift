// swift-tools-version: 6.0
// A multi-screen SwiftUI app whose sources build unchanged against SwiftUI (on Apple platforms)
// and RippleUI (everywhere else), and a test suite that drives it through RippleUI's test API.
import PackageDescription

let package = Package(
    name: "NotesApp",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        // In your package: .package(url: "https://github.com/OWNER/Ripple", branch: "main")
        .package(name: "Ripple", path: "../..")
    ],
    targets: [
        // The app's models and views: SwiftUI code; only the import is conditional.
        .target(
            name: "Notes",
            dependencies: [
                .product(
                    name: "RippleUI", package: "Ripple",
                    condition: .when(platforms: [.linux, .windows, .android, .wasi, .openbsd]))
            ]),
        // `swift run NotesApp`: launches the app headless and prints its first screen.
        .executableTarget(name: "NotesApp", dependencies: ["Notes"]),
        .testTarget(
            name: "NotesTests",
            dependencies: ["Notes", .product(name: "RippleUI", package: "Ripple")]),
    ],
    swiftLanguageModes: [.v6]
)
