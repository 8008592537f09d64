/// The targets, as ratios to a peer measured in the same run (the absolute numbers
/// divided by the peer's number it quotes for this machine kind).
struct Target {
    let peer: String
    let ratio: Double
    let text: String
}

let targets: [String: Target] = [
    // The delivery engine that anyone can check and change (issue 24): looser than the bounds of
    // the lock-free engine it replaced (0.15×, 0.10×, 0.15×, 0.20×, 0.10×), by design.
    "send, 1 sink": Target(peer: "OpenCombine", ratio: 0.20, text: "≤ 0.20× OpenCombine"),
    "send, 100 sinks (per delivery)": Target(peer: "OpenCombine", ratio: 0.20, text: "≤ 0.20× OC"),
    "map→filter→sink": Target(peer: "OpenCombine", ratio: 0.20, text: "≤ 0.20× OC"),
    "@Published set, objectWillChange sink": Target(peer: "OpenCombine", ratio: 0.25, text: "≤ 0.25× OC"),
    "heap per fresh ObservableObject (1 @Published)": Target(peer: "OpenCombine", ratio: 1.0, text: "≤ OpenCombine's"),
    "@Published set, unobserved": Target(peer: "Observation", ratio: 20.0 / 48, text: "≤ 20 ns (0.42× Obs)"),
    "@Published get": Target(peer: "Observation", ratio: 10.0 / 15, text: "≤ 10 ns (0.67× Obs)"),
    "objectWillChange repeat access": Target(peer: "OpenCombine", ratio: 20.0 / 1_455, text: "≤ 20 ns (0.014× OC)"),
    "objectWillChange first access, 10 props": Target(peer: "OpenCombine", ratio: 1_000.0 / 12_200, text: "≤ 1 µs (0.08× OC)"),
    "sink+cancel, 1,000 others": Target(peer: "OpenCombine", ratio: 0.15, text: "≤ 0.15× OC"),
    "heap per live sink": Target(peer: "OpenCombine", ratio: 150.0 / 485, text: "≤ 150 B (0.31× OC)"),
    "tracked read, 1 prop": Target(peer: "Observation", ratio: 20.0 / 90, text: "≤ 20 ns (0.22× Obs)"),
    "arm + mutate + fire, 1 prop": Target(peer: "Observation", ratio: 200.0 / 873, text: "≤ 200 ns (0.23× Obs)"),
]

/// Absolute targets, for RippleUI's rows (nothing else here runs views, so there is no peer).
let absoluteTargets: [String: (nanoseconds: Double, text: String)] = [
    "RippleUI: 1 of 1,000 rows changes (per update)": (10_000, "≤ 10 µs"),
    "RippleUI: selection passed to 1,000 rows (per update)": (1_000_000, "≤ 1 ms"),
    "RippleUI: initial build of 1,000 rows": (10_000_000, "≤ 10 ms"),
]
