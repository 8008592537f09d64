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
// schedulers) and RippleFoundation (Combine's Foundation side, and Foundation itself). Neither
// declares a name a library built on Combine may declare too: Ripple's type-erased and immediate
// schedulers (`AnyScheduler`, `DispatchQueue.immediate`, `eraseToAnyScheduler()` — the names of
// combine-schedulers' API) live in RippleTesting. CI compiles every public type of Ripple and
// RippleFoundation through this module, and fails on any name it exports that is neither
// Combine's nor one of Ripple's additions listed in .ci/combine-names.txt.
//
// Not exported by name: Swift finds the operators of `Subscribers.Demand` only in modules imported
// whole, so a Combine made of `import struct Ripple.Just`-style imports would lose `demand += 1`.

@_exported import Ripple
@_exported import RippleFoundation
