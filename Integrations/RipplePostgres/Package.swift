// swift-tools-version: 6.0
// Ripple's publishers over PostgreSQL: durable streams (an append-only table, replayed with the
// subscriber's demand as the query's limit) and ephemeral LISTEN/NOTIFY channels. A separate
// package so that Ripple itself stays dependency-free.
import PackageDescription

let package = Package(
    name: "RipplePostgres",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "RipplePostgres", targets: ["RipplePostgres"]),
    ],
    dependencies: [
        // In your package: .package(url: "https://github.com/OWNER/Ripple", from: "1.0.0")
        .package(name: "Ripple", path: "../.."),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        .target(
            name: "RipplePostgres",
            dependencies: [
                .product(name: "Ripple", package: "Ripple"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]),
        // `swift run RipplePostgresExample`: a model shared by two processes (README).
        .executableTarget(name: "RipplePostgresExample", dependencies: ["RipplePostgres"]),
        // `swift run -c release RipplePostgresBenchmark`: Ripple's stream beside a hand-written loop.
        .executableTarget(
            name: "RipplePostgresBenchmark",
            dependencies: ["RipplePostgres", .product(name: "PostgresNIO", package: "postgres-nio")]),
        .testTarget(
            name: "RipplePostgresTests",
            dependencies: ["RipplePostgres", .product(name: "PostgresNIO", package: "postgres-nio")]),
    ],
    swiftLanguageModes: [.v6]
)
