// swift-tools-version: 6.0
// Stands in for the OpenCombine package in a build that uses Ripple's `Combine` module, so that
// libraries written against `OpenCombineShim` (combine-schedulers, for one) build against Ripple,
// in every build order. Add it to your root package by path: a root package's dependency replaces
// any package of the same identity ("opencombine", from the folder's name) in the whole graph.
import PackageDescription

let package = Package(
    name: "OpenCombine",
    products: [
        .library(name: "OpenCombineShim", targets: ["OpenCombineShim"]),
    ],
    dependencies: [
        .package(name: "Ripple", path: "../.."),
    ],
    targets: [
        .target(
            name: "OpenCombineShim",
            dependencies: [
                .product(
                    name: "Combine", package: "Ripple",
                    condition: .when(platforms: [.linux, .windows, .android, .wasi, .openbsd]))
            ]),
    ],
    swiftLanguageModes: [.v6]
)
