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
        rewrite: zipAsksEveryUpstreamForTheReturnedDemand),
]
    // Enabled with Ripple's prefix/output fix (they finished one element late, as OpenCombine).
    + (rippleFinishesPrefixRightAfterTheRange
        ? [
            AppleExpectation(
                name: "Apple's prefix and output finish right after the range's last element (swapped in, compared up to that completion)",
                rewrite: prefixFinishesRightAfterTheLastElement)
        ] : [])

/// Whether Ripple's `prefix`/`output` finish at Apple's moment (the fix that swaps it in).
let rippleFinishesPrefixRightAfterTheRange = false

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

/// Combine's `prefix(_:)`, `output(at:)` and `output(in:)` cancel their upstream and finish right
/// after the range's last element is delivered; OpenCombine (like Ripple before) waits for the
/// next element to arrive. Apple-recorded: OpenCombine's own PrefixTests/OutputTests, run against
/// Combine, never see a completion wait for an element past the range, and GRDB's
/// `testDeadlockPrevention` (passing on Apple platforms in its CI) awaits `prefix(1)`'s
/// completion after a single value. Swapped in: once the range's last element has been delivered
/// below the operator and the return reached it (at the nearest probe below, or the subscriber,
/// with only operators between that pass values, demand and completions on as they are), the
/// probe right above it (if any, and still subscribed) is cancelled, and `.finished` goes down
/// each probe below and to the subscriber. What follows is no reference: both histories are
/// compared up to that completion. Only with one such operator, a nonempty range, and a plain
/// recording subscriber.
@Sendable
private func prefixFinishesRightAfterTheLastElement(_ c: Case, _ events: [String]) -> (events: [String], cut: Bool)? {
    let ranged = c.ops.indices.compactMap { i -> (at: Int, count: Int)? in
        switch c.ops[i] {
        case .prefix(let n): (i, n)
        case .outputAt: (i, 1)
        case .outputIn(let a, let b): (i, max(0, b - a))
        default: nil
        }
    }
    guard ranged.count == 1, let (at, count) = ranged.first, count > 0,
        c.wrap == .none || c.wrap == .anySubscriber
    else { return nil }
    guard c.ops[(at + 1)...].allSatisfy({ $0 == .probe || [.mapError, .eraseToAnyPublisher, .mapKeyPath].contains($0) || {
        if case .map = $0 { return true } else { return false }
    }($0) }) else { return nil }
    let k = c.ops[..<at].filter { $0 == .probe }.count
    let above: String? = at > 0 && c.ops[at - 1] == .probe ? "P\(k)" : nil
    let belowProbes = (k + 1)...(k + c.ops[(at + 1)...].filter { $0 == .probe }.count + 1)
    let nearest = c.ops.indices.contains(at + 1) && c.ops[at + 1] == .probe ? "P\(k + 1)" : "S"
    // The last probe (c.ops' probes below + 1) stands for nothing: the subscriber is "S".
    let probesBelow = belowProbes.dropLast().map { "P\($0)" }
    var delivered = 0
    var aboveLive = false
    for (index, event) in events.enumerated() {
        let parts = event.split(separator: " ")
        guard parts.count >= 2 else { continue }
        if let above, parts[0] == above {
            if parts[1] == "got" { aboveLive = true }
            if parts[1] == "completion" || parts[1] == "cancel" { aboveLive = false }
        }
        // Anything ending the stream first leaves nothing to swap.
        if parts[0] == "S", parts[1] == "completion" || parts[1] == "cancels" { return nil }
        if event == "do cancel()" { return nil }
        let returned: Bool
        if nearest == "S" {
            if parts[0] == "S", parts[1] == "value" { delivered += 1 }
            returned = parts[0] == "S" && parts[1] == "returns"
        } else {
            let isValue = parts[0] == nearest && parts[1] == "value"
            if isValue, !event.contains(" returned ") { delivered += 1 }
            returned = isValue && event.contains(" returned ")
        }
        guard returned, delivered == count else { continue }
        // OpenCombine finishing there already (the upstream completed with the last element).
        if index + 1 < events.count, events[index + 1].hasSuffix("cancel") || events[index + 1].contains(" completion ") {
            return nil
        }
        var swapped = Array(events[...index])
        if let above, aboveLive { swapped.append("\(above) cancel") }
        swapped += probesBelow.map { "\($0) completion finished" }
        swapped.append("S completion finished")
        return (swapped, true)
    }
    return nil
}
