// swift-tools-version: 6.0
// A trail journal written the way Apple's SwiftUI tutorials write their apps (an @Observable model
// in the environment, a tab view, a list with a filter, a pushed detail with a favorite toggle
// through a collection binding, a profile sheet edited as a draft under edit mode), and a test
// suite that drives its flows through RippleUI's test API.
import PackageDescription

let package = Package(
    name: "TrailJournal",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        // In your package: .package(url: "https://github.com/OWNER/Ripple", branch: "main")
        .package(name: "Ripple", path: "../..")
    ],
    targets: [
        // The app's model and views: SwiftUI code; only the import is conditional.
        .target(
            name: "Trails",
            dependencies: [
                .product(
                    name: "RippleUI", package: "Ripple",
                    condition: .when(platforms: [.linux, .windows, .android, .wasi, .openbsd]))
            ]),
        .testTarget(
            name: "TrailsTests",
            dependencies: ["Trails", .product(name: "RippleUI", package: "Ripple")]),
    ],
    swiftLanguageModes: [.v6]
)
