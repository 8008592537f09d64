// Ripple divergences that are found and owned but not fixed yet. A divergence whose shrunk case
// involves one of these is reported (with its example) but does not fail the run; any other
// divergence does. Remove an entry when its fix lands, so the oracle guards it from then on.
import ConformanceModel
import Foundation

struct OpenItem {
    /// The bare operator name (as in the divergence family) or source kind ("Just", "Sequence").
    let name: String
    let owner: String
    let what: String
    /// For a source's item: what Ripple's history would say once it is fixed, so a case whose only
    /// difference is this one is recognised without shrinking.
    var fixed: (@Sendable (Case, String) -> String)? = nil
}

// Unsettled and not generated (so no entry here: an entry matches every divergence of its
// operator), Conformance/README.md "share, multicast, AnySubscriber(subject), failing Futures,
// inner probes": a cancel made from inside a delivery while `autoconnect()` connects (Ripple
// cancels the upstream; OpenCombine, and by AutoconnectTests.testReentranceWhenConnecting likely
// Combine, cancels nothing), and what a probe on flatMap's inners shows (the order of flatMap's
// cancels; a child's demand once the downstream's turned unlimited). Neither is recorded against
// Combine; neither is known to be a Ripple defect.
let openItems: [OpenItem] = [
]

private let sourceNames: Set<String> = ["Just", "Sequence", "Empty", "Fail", "subject"]

/// The source item whose fix alone would make the histories equal (checked before shrinking).
func openSourceItem(_ c: Case, openCombine: [String], ripple: [String]) -> OpenItem? {
    for item in openItems {
        guard let fixed = item.fixed else { continue }
        let rewritten = ripple.map { fixed(c, $0) }
        if rewritten == openCombine || knownOpenCombineDeviation(c, openCombine: openCombine, ripple: rewritten) != nil {
            return item
        }
    }
    return nil
}

/// The open item a shrunk divergence belongs to, if any: a source's item only when no operator
/// is left in the shrunk case, an operator's when the operator is in it.
func openItem(for family: String) -> OpenItem? {
    let parts = family.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
    return openItems.first { item in
        sourceNames.contains(item.name) ? parts == [item.name] : parts.contains(item.name)
    }
}
