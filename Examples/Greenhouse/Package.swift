// swift-tools-version: 6.0
// Greenhouse: a plant-care log written for Ripple (an ObservableObject store loaded at launch and
// saved when the scene goes inactive, bindings into the store's plants, a pushed detail with an
// edit sheet over a draft, a watering round pushed from the detail that logs itself when it
// closes, an error sheet), and a test suite that drives every flow through RippleUI's test API.
import PackageDescription

let package = Package(
    name: "Greenhouse",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [
        // In your package: .package(url: "https://github.com/OWNER/Ripple", branch: "main")
        .package(name: "Ripple", path: "../..")
    ],
    targets: [
        // The app's models and views: SwiftUI code; only the import is conditional.
        .target(
            name: "Greenhouse",
            dependencies: [
                .product(
                    name: "RippleUI", package: "Ripple",
                    condition: .when(platforms: [.linux, .windows, .android, .wasi, .openbsd]))
            ]),
        // `swift run GreenhouseApp`: launches the app headless. RippleUI's `App.main()` prints the
        // first screen's texts before any `.task` has run, so the shelf (restored in one) prints empty.
        .executableTarget(name: "GreenhouseApp", dependencies: ["Greenhouse"]),
        .testTarget(
            name: "GreenhouseTests",
            dependencies: ["Greenhouse", .product(name: "RippleUI", package: "Ripple")]),
    ],
    swiftLanguageModes: [.v6]
)
