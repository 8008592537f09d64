// OpenCombine 0.14.0's own bugs: where it differs from Apple's Combine, its history is not the
// reference. Each entry is described, with the Apple documentation it was checked against, in
// Conformance/README.md.
import ConformanceModel

/// Places in OpenCombine's sources where it crashes on inputs Combine handles: a case whose
/// OpenCombine run crashes there is counted as skipped, not as a failure.
let knownOpenCombineCrashes: [String: String] = [
    "COpenCombineHelpers.cpp:89":
        "a re-entrant call (a request or cancel made from inside a delivery) takes a non-recursive lock twice",
    "Publishers.ReplaceError.swift:134":
        "replaceError subtracts from a demand it never added to when the downstream requests inside receive(_:)",
]

/// Divergences where OpenCombine, not Ripple, departs from Combine.
func knownOpenCombineDeviation(_ c: Case, openCombine: [String], ripple: [String]) -> String? {
    if withoutDeliveriesAfterCancel(openCombine) == ripple {
        return "delivers to a subscriber after it cancelled"
    }
    return nil
}

/// OpenCombine's history with what reached the subscriber after its first cancel removed.
private func withoutDeliveriesAfterCancel(_ events: [String]) -> [String] {
    guard let cancel = events.firstIndex(where: { $0 == "do cancel()" || $0.hasPrefix("S cancels") }) else {
        return events
    }
    let after = events[cancel...].filter {
        !($0.hasPrefix("S value") || $0.hasPrefix("S returns") || $0.hasPrefix("S completion"))
    }
    return Array(events[..<cancel]) + after
}
