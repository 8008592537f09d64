// The `Combine` compatibility module: for platforms that have no Combine (Linux, Windows, Android,
// WASI, OpenBSD). Code written for Apple's Combine — `import Combine`, `Combine.Subscription`,
// `#if canImport(Combine)` — builds unchanged against Ripple through it.
//
// Depend on it only where Apple's Combine does not exist, so the real one wins on Apple platforms:
//
//     .product(name: "Combine", package: "Ripple",
//              condition: .when(platforms: [.linux, .windows, .android, .wasi, .openbsd]))
//
// It re-exports RippleCore (the publishers, subjects, operators, `ObservableObject`, `@Published`,
// schedulers) and RippleFoundationCore (Combine's Foundation side, and Foundation itself): exactly
// Combine's public names. Ripple's own additions — access tracking (`withTracking`, `observe`),
// `RippleDiagnostics`, `AsyncSequence.publisher`, the completion-handler `Future` — stay in Ripple
// and RippleFoundation, and neither module declares a name a library built on Combine may declare
// too: Ripple's type-erased and immediate schedulers (`AnyScheduler`, `DispatchQueue.immediate`,
// `eraseToAnyScheduler()` — the names of combine-schedulers' API) live in RippleSchedulers. CI
// compiles every public type of RippleCore and RippleFoundationCore through this module, and fails
// on any name it exports that is not Combine's (.ci/combine-names.txt).
//
// Not exported by name: Swift finds the operators of `Subscribers.Demand` only in modules imported
// whole, so a Combine made of `import struct RippleCore.Just`-style imports would lose `demand += 1`.

@_exported import RippleCore
@_exported import RippleFoundationCore
