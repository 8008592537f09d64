// Apple's expectations swapped into OpenCombine's history where OpenCombine is wrong and Apple's
// behaviour is recorded: the comparison goes on against what Apple's Combine does, not stopped
// where the two libraries share a departure (then Ripple, if it shared it too, would look
// "identical"). Applied to every case before the histories are compared; a swap that leaves no
// reference after it cuts both histories there (Conformance/README.md, "Apple's expectations").
import ConformanceModel

/// One rewrite of OpenCombine's history into Apple's.
struct AppleExpectation: Sendable {
    let name: String
    /// OpenCombine's history rewritten, and whether nothing after the rewritten part is a
    /// reference (both histories are then compared up to its end only); `nil` where it does not
    /// apply.
    let rewrite: @Sendable (Case, [String]) -> (events: [String], cut: Bool)?
}

let appleExpectations: [AppleExpectation] = [
    AppleExpectation(
        name: "Apple's zip asks every upstream for the demand returned for a tuple (swapped in, compared up to that request)",
        rewrite: zipAsksEveryUpstreamForTheReturnedDemand)
]

/// OpenCombine's history with Apple's expectations swapped in, Ripple's cut where a swap leaves no
/// reference, and the names of the swaps made.
func withAppleExpectations(_ c: Case, openCombine: [String], ripple: [String])
    -> (openCombine: [String], ripple: [String], swaps: [String])
{
    var expected = openCombine
    var actual = ripple
    var swaps: [String] = []
    for swap in appleExpectations {
        guard let rewritten = swap.rewrite(c, expected) else { continue }
        swaps.append(swap.name)
        expected = rewritten.events
        if rewritten.cut {
            actual = Array(actual.prefix(expected.count))
            break
        }
    }
    return (expected, actual, swaps)
}

/// Whether `op` hands the demand returned by its downstream back to its upstream as it is.
private func returnsDemandUnchanged(_ op: Op) -> Bool {
    switch op {
    case .probe, .map, .mapError, .eraseToAnyPublisher, .mapKeyPath, .handleEvents: true
    default: false
    }
}

/// Combine's zip asks every upstream for the demand its downstream returns for a tuple: the sender
/// as the return of its `receive(_:)`, the others by a request (CombineX's ZipSpec "should send as
/// many as demands", run against Combine: two subjects, 10 requested and `.max(1)` returned twice
/// make 12 tuples). OpenCombine asks only the sender. Swapped in: at the first tuple delivered
/// inside an upstream's value (seen at the probe right above zip, "P…", or at the partner's probe,
/// "PZ1") whose downstream returned nonzero demand (seen at the nearest probe below zip, or the
/// subscriber, with only operators between that return demand as they are), the other upstream's
/// probe is asked for it right after the return reaches zip. What the other upstream does then
/// OpenCombine cannot show: both histories are compared up to that request. Where the other
/// upstream has no probe, up to the return. Only with one zip, and not where the other upstream
/// already completed or was cancelled (nothing is asked of it then, in both libraries).
@Sendable
private func zipAsksEveryUpstreamForTheReturnedDemand(_ c: Case, _ events: [String]) -> (events: [String], cut: Bool)? {
    let zips = c.ops.indices.filter { if case .zipWith = c.ops[$0] { true } else { false } }
    guard zips.count == 1, let zipAt = zips.first else { return nil }
    let k = c.ops[..<zipAt].filter { $0 == .probe }.count
    let main: Substring? = zipAt > 0 && c.ops[zipAt - 1] == .probe ? Substring("P\(k)") : nil
    let partner: Substring = "PZ1"
    // Where zip's returned demand shows.
    var below: Substring?
    var i = zipAt + 1
    while i < c.ops.count, returnsDemandUnchanged(c.ops[i]) {
        if c.ops[i] == .probe {
            below = Substring("P\(k + 1)")
            break
        }
        i += 1
    }
    if below == nil {
        guard i == c.ops.count, c.wrap == .none || c.wrap == .anySubscriber else { return nil }
        below = "S"
    }
    guard let below else { return nil }
    var open: [Substring] = []
    var ended: Set<Substring> = []
    for (index, event) in events.enumerated() {
        let parts = event.split(separator: " ")
        guard parts.count >= 2 else { continue }
        let party = parts[0]
        if party == main || party == partner {
            if parts[1] == "completion" || parts[1] == "cancel" { ended.insert(party) }
            if parts[1] == "got" { ended.remove(party) }
            if parts[1] == "value" {
                if event.contains(" returned ") {
                    if let last = open.lastIndex(of: party) { open.remove(at: last) }
                } else {
                    open.append(party)
                }
            }
            if party != below { continue }
        }
        guard let sender = open.last else { continue }
        let demand: Substring
        if below == "S" {
            guard party == "S", parts.count == 3, parts[1] == "returns" else { continue }
            demand = parts[2]
        } else {
            guard party == below, parts.count >= 5, parts[1] == "value", parts[parts.count - 2] == "returned" else {
                continue
            }
            demand = parts[parts.count - 1]
        }
        guard demand != "none" else { continue }
        guard let other = sender == partner ? main : partner else {
            // The other upstream has no probe: what it is asked is not seen.
            return (Array(events[...index]), true)
        }
        if ended.contains(other) { continue }
        let request = "\(other) request \(demand)"
        if index + 1 < events.count, events[index + 1] == request { continue }
        return (Array(events[...index]) + [request], true)
    }
    return nil
}
