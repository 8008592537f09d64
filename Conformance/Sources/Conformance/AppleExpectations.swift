// Apple's expectations swapped into OpenCombine's history where OpenCombine is wrong and Apple's
// behaviour is recorded: the comparison goes on against what Apple's Combine does, not stopped
// where the two libraries share a departure (then Ripple, if it shared it too, would look
// "identical"). Applied to every case before the histories are compared; a swap that leaves no
// reference after it cuts both histories there (Conformance/README.md, "Apple's expectations").
import ConformanceModel
import OpenCombineRunner
import RippleRunner

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
let rippleFinishesPrefixRightAfterTheRange = true

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

/// Whether `op` passes a cancel straight up (the probes above it see it at once): every operator
/// but `subscribe(on:)` (which cancels on its scheduler) and `zip` (the order it cancels its two
/// upstreams in is not recorded).
private func forwardsCancel(_ op: Op) -> Bool {
    switch op {
    case .subscribeOnVirtual, .zipWith: false
    default: true
    }
}

/// Whether `op` passes values and `.finished` on as they come (one value for one, at once).
/// `share()` and `multicast { PassthroughSubject() }.autoconnect()` with their one subscriber: the
/// subject sends each value it is asked for and its completion at once (ShareTests and
/// MulticastTests, recorded against Combine), and a cancel from below disconnects (the upstream
/// is cancelled: AutoconnectTests.testBasicRefcountBehavior).
private func passesValuesAndFinished(_ op: Op) -> Bool {
    switch op {
    case .probe, .map, .mapError, .eraseToAnyPublisher, .mapKeyPath, .handleEvents, .share, .multicastAutoconnect: true
    default: false
    }
}

/// Combine's `prefix(_:)`, `output(at:)` and `output(in:)` cancel their upstream and finish right
/// after the range's last element is delivered; OpenCombine (like Ripple before) waits for the
/// next element to arrive. Apple-recorded: OpenCombine's own OutputTests (run against Combine)
/// and CombineX's OutputSpec never see a completion wait for an element past the range, and
/// GRDB's `testDeadlockPrevention` (passing on Apple platforms in its CI) awaits `prefix(1)`'s
/// completion after a single value. Swapped in: once the range's last element has been delivered
/// below the operator and the delivery returned (the nearest probe below's "returned" line, the
/// subscriber's return, or — for a sink or an `assign` — the value itself), the probes above it
/// still subscribed are cancelled (from the operator up, as far as operators that pass a cancel
/// straight up reach), then `.finished` goes down each probe below and to the subscriber (for
/// `assign(to:on:)`, its object's release). Where an operator below does something of its own with
/// values or the completion (`buffer`, `reduce`, …), only a probe right below the operator shows
/// the moment: both histories are compared up to that probe's return. What follows is no
/// reference: both histories are compared up to the swapped-in completion. Only with one such
/// operator and a nonempty range.
@Sendable
private func prefixFinishesRightAfterTheLastElement(_ c: Case, _ events: [String]) -> (events: [String], cut: Bool)? {
    let ranged = rangedOperators(c)
    guard !ranged.isEmpty else { return nil }
    if ranged.count == 1, let (at, count) = ranged.first,
        c.ops[(at + 1)...].allSatisfy(passesValuesAndFinished)
            || (c.ops.indices.contains(at + 1) && c.ops[at + 1] == .probe)
    {
        return rangeMoment(c, at: at, count: count, events)
    }
    // Where an operator below does something of its own with values or the completion and no probe
    // sits right below (or there are several such operators): the case runs again with a probe
    // right below each, "PR…", where the moment is seen; there Ripple must match Apple's moment
    // (the earliest one's), and the case's own histories are compared up to that point (the
    // events before it, in the probed run, without the added probes' lines).
    var probed = c
    probed.ops = []
    var added: Set<String> = []
    var probes = 0
    var positions: [(at: Int, count: Int)] = []
    for (i, op) in c.ops.enumerated() {
        probed.ops.append(op)
        if op == .probe { probes += 1 }
        if let range = ranged.first(where: { $0.at == i }) {
            positions.append((probed.ops.count - 1, range.count))
            probed.ops.append(.probe)
            probes += 1
            added.insert("P\(probes)")
        }
    }
    let openCombine = OpenCombineRunner.Runner.run(probed)
    let ripple = RippleRunner.Runner.run(probed)
    let moments = positions.compactMap { rangeMoment(probed, at: $0.at, count: $0.count, openCombine) }
    // The earliest moment: where its swap parts from OpenCombine's history.
    let parting = { (m: (events: [String], cut: Bool)) in zip(m.events, openCombine).prefix { $0 == $1 }.count }
    guard let earliest = moments.min(by: { parting($0) < parting($1) }),
        Array(ripple.prefix(earliest.events.count)) == earliest.events
    else { return nil }
    // The probed run's events before the moment, the added probes' lines out and the probes below
    // them renumbered: the case's own events up to there.
    let before = earliest.events.filter { !added.contains(String($0.prefix { $0 != " " })) }
    func renumbered(_ events: [String]) -> [String] {
        events.map { event in
            guard event.hasPrefix("P"), let n = Int(event.dropFirst().prefix { $0 != " " }) else { return event }
            let shift = added.filter { Int($0.dropFirst())! < n }.count
            return "P\(n - shift)" + event.drop { $0 != " " }
        }
    }
    // The subscription a party below an added probe got is described as the probe: the case's own
    // history names what it really got, in order.
    func described(_ lines: [String]) -> [String] {
        var got: [Substring: [String]] = [:]
        for event in events where event.contains(" got subscription ") {
            got[event.prefix { $0 != " " }, default: []].append(event)
        }
        return lines.map { line in
            guard line.contains(" got subscription "), var mine = got[line.prefix { $0 != " " }], !mine.isEmpty
            else { return line }
            let original = mine.removeFirst()
            got[line.prefix { $0 != " " }] = mine
            return original
        }
    }
    // Up to the moment the case's own OpenCombine history is the probed one without those lines.
    let swapped = described(renumbered(before))
    let unchanged = described(renumbered(openCombine.prefix(earliest.events.count).filter {
        !added.contains(String($0.prefix { $0 != " " }))
    }))
    let agreed = zip(swapped, unchanged).prefix { $0 == $1 }.count
    guard !swapped.isEmpty, Array(events.prefix(agreed)) == Array(swapped.prefix(agreed)) else { return nil }
    return (swapped, true)
}

/// The operators that keep a range of elements (`prefix`, `output`): where, and how many.
private func rangedOperators(_ c: Case) -> [(at: Int, count: Int)] {
    c.ops.indices.compactMap { i -> (at: Int, count: Int)? in
        switch c.ops[i] {
        case .prefix(let n): n > 0 ? (i, n) : nil
        case .outputAt: (i, 1)
        case .outputIn(let a, let b): b > a ? (i, b - a) : nil
        default: nil
        }
    }
}

/// OpenCombine's history with Apple's moment swapped in for the ranged operator at `at`, cut
/// after it; `nil` where the moment never comes (or the stream ends first).
private func rangeMoment(_ c: Case, at: Int, count: Int, _ events: [String]) -> (events: [String], cut: Bool)? {
    let k = c.ops[..<at].filter { $0 == .probe }.count
    let passes = c.ops[(at + 1)...].allSatisfy(passesValuesAndFinished)
    let probeRightBelow = c.ops.indices.contains(at + 1) && c.ops[at + 1] == .probe
    let probesBelow = (0..<c.ops[(at + 1)...].filter { $0 == .probe }.count).map { "P\(k + 1 + $0)" }
    // The probes above that see the cancel at once: from the operator up, through operators that
    // pass a cancel straight up.
    var above: [String] = []
    var n = k
    var i = at - 1
    while i >= 0, forwardsCancel(c.ops[i]) {
        if c.ops[i] == .probe {
            above.append("P\(n)")
            n -= 1
        }
        i -= 1
    }
    // The line that marks the range's last delivery.
    let nearest: String
    var skip = 0
    // With operators between that pass values on one for one, the first probe below shows the
    // delivery's return too: its "returned" line is the last one before the return reaches the
    // ranged operator (the probes and the subscriber below it return first).
    if probeRightBelow || (passes && !probesBelow.isEmpty) {
        nearest = "P\(k + 1)"
    } else {
        switch c.wrap {
        case .assign: nearest = "A"
        case .assignPublished:
            nearest = "A"
            skip = 1  // the property's initial value
        default: nearest = "S"
        }
    }
    let subscriberReturns = c.wrap == .none || c.wrap == .anySubscriber || c.wrap == .subject
        || c.wrap == .anySubscriberSubject
    var delivered = 0
    var live: Set<String> = []
    // A subscriber behind a subject that cancelled leaves the pipeline running: it just gets
    // nothing more.
    var subscriberGone = false
    for (index, event) in events.enumerated() {
        let parts = event.split(separator: " ")
        guard parts.count >= 2 else { continue }
        let party = String(parts[0])
        if parts[1] == "got" { live.insert(party) }
        if parts[1] == "completion" || parts[1] == "cancel" { live.remove(party) }
        if c.wrap == .subject || c.wrap == .anySubscriberSubject, event == "do cancel()" || (party == "S" && parts[1] == "cancels") {
            subscriberGone = true
            continue
        }
        // Anything ending the stream first leaves nothing to swap.
        if (party == "S" && (parts[1] == "completion" || parts[1] == "cancels")) || event == "do cancel()"
            || event == "A released" || (party == nearest && parts[1] == "completion")
        {
            return nil
        }
        let marks: Bool
        if nearest.hasPrefix("P") {
            let isValue = party == nearest && parts[1] == "value"
            if isValue, !event.contains(" returned ") { delivered += 1 }
            marks = isValue && event.contains(" returned ")
        } else if nearest == "S" {
            if party == "S", parts[1] == "value" { delivered += 1 }
            marks = subscriberReturns ? party == "S" && parts[1] == "returns" : party == "S" && parts[1] == "value"
        } else {
            if party == "A", parts[1] == "value" { delivered += 1 }
            marks = party == "A" && parts[1] == "value"
        }
        guard marks, delivered - skip == count else { continue }
        var swapped = Array(events[...index])
        swapped += above.filter(live.contains).map { "\($0) cancel" }
        guard passes else {
            // An operator below acts on the completion: the probe right below shows it arrive.
            swapped.append("P\(k + 1) completion finished")
            return (swapped, true)
        }
        swapped += probesBelow.map { "\($0) completion finished" }
        switch c.wrap {
        // `assign(to:on:)` lets its object go on completion, but when the release is logged
        // depends on who else holds it: compared up to the cancels and the probes' completions.
        case .assign, .assignPublished: break
        default: if !subscriberGone { swapped.append("S completion finished") }
        }
        return (swapped, true)
    }
    return nil
}

