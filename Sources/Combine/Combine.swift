// The `Combine` compatibility module: for platforms that have no Combine (Linux, Windows, Android,
// WASI, OpenBSD). Code written for Apple's Combine — `import Combine`, `Combine.Subscription`,
// `#if canImport(Combine)` — builds unchanged against Ripple through it.
//
// Depend on it only where Apple's Combine does not exist, so the real one wins on Apple platforms:
//
//     .product(name: "Combine", package: "Ripple",
//              condition: .when(platforms: [.linux, .windows, .android, .wasi, .openbsd]))
//
// It re-exports Ripple (the publishers, subjects, operators, `ObservableObject`, `@Published`,
// schedulers) and RippleFoundation (Combine's Foundation side, and Foundation itself, which
// Combine users expect beside it). A module-qualified name such as `Combine.Subscribers.Demand`
// resolves through the re-export: CI compiles a file that names every public type of Ripple and
// RippleFoundation that way (.ci/check-combine-names.swift).
@_exported import Ripple
@_exported import RippleFoundation
