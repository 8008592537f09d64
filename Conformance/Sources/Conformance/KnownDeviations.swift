// OpenCombine 0.14.0's own bugs: where it differs from Apple's Combine, its history is not the
// reference. Each entry is described, with the Apple documentation it was checked against, in
// Conformance/README.md.
import ConformanceModel

/// Places in OpenCombine's sources where it crashes on inputs Combine handles: a case whose
/// OpenCombine run crashes there is counted as skipped, not as a failure.
let knownOpenCombineCrashes: [String: String] = [
    "COpenCombineHelpers.cpp:89":
        "a re-entrant call (a request or cancel made from inside a delivery) takes a non-recursive lock twice",
    "FilterProducer.swift:124":
        "zip over an upstream that completes at once sends its downstream a completion before a subscription",
    "unowned reference read":
        "zip reads one of its released inner subscriptions (an unowned reference) after a child completed",
    "GENERATED-Publishers.Catch.swift:336":
        "catch traps 'received completion but do not have subscription' when an upstream completes during its own subscription",
    "GENERATED-Publishers.Catch.swift:217":
        "catch traps in its demand bookkeeping (an optimized build's illegal instruction) when more arrives than it counted",
    "Publishers.Retry.swift:177":
        "retry traps decrementing its downstream demand below zero (`downstreamDemand -= 1`) after a re-entrant request",
    "Publishers.Retry.swift:189":
        "retry recurses without bound on synchronous resubscription and overflows the stack",
    "Publishers.ReceiveOn.swift:169":
        "a re-entrant request through receive(on:) and replaceError recurses without bound and overflows the stack",
    "Publishers.ReceiveOn.swift:163":
        "the same recursion through receive(on:) and replaceError, overflowing the stack in scheduledReceive",
    "Publishers.ReceiveOn.swift:175":
        "the same recursion through receive(on:) and replaceError, overflowing the stack one frame further on",
    "Publishers.ReplaceEmpty.swift:170":
        "a re-entrant request through replaceEmpty recurses without bound and overflows the stack",
    "Publishers.ReplaceError.swift:179":
        "replaceError delivers its replacement again on each request after its upstream failed, and retry hands the demand returned from it back as a request: unbounded recursion overflows the stack",
    "Publishers.Retry.swift:173":
        "retry hands the demand returned from a value back as a request to a replaceEmpty that delivers again on each request: unbounded recursion overflows the stack",
    "Publishers.ReplaceError.swift:134":
        "replaceError subtracts from a demand it never added to when the downstream requests inside receive(_:)",
]

/// One of OpenCombine's own departures from Combine: a rewrite of OpenCombine's history that
/// undoes it. A case counts as a known deviation only if the rewritten history equals Ripple's.
struct KnownDeviation: Sendable {
    let name: String
    /// Whether the rewrite applies to Ripple's history too: for events whose presence Combine
    /// does not define (a request made of an upstream after it completed), so that neither
    /// library is held to OpenCombine's choice.
    var bothSides = false
    let undo: @Sendable (Case, [String]) -> [String]

    init(name: String, bothSides: Bool = false, undo: @escaping @Sendable (Case, [String]) -> [String]) {
        self.name = name
        self.bothSides = bothSides
        self.undo = undo
    }
}

let knownDeviations: [KnownDeviation] = [
    // Combine's `delay` subscription is not CustomStringConvertible: its description is its type
    // name (OpenCombine's DelayTests, recorded against Combine, build the expected name from the
    // library's own output for that reason), and so is OpenCombine's. Ripple's says "Delay" (the
    // Porting article's row, a readable name as every other operator's).
    KnownDeviation(name: "Ripple by design: delay's subscription describes itself as \"Delay\" (Combine's is its type name)") {
        _, events in
        events.map { event in
            guard let range = event.range(of: " got subscription "),
                event[range.upperBound...].hasPrefix("OpenCombine.Publishers.Delay<")
            else { return event }
            return event[..<range.upperBound] + "Delay"
        }
    },
    // Combine's `share()` and `multicast(_:)`'s subscription describes itself as "Multicast", and
    // `autoconnect()` hands its upstream's subscription on as it is (OpenCombine's ShareTests and
    // MulticastTests expect `.subscription("Multicast")`, AutoconnectTests.testBasicRefcountBehavior
    // and testAutoconnectReflection the connectable's own subscription, all recorded against
    // Combine); OpenCombine does the same. Ripple's says "Autoconnect" (the Porting article's
    // "Reflection and names" row). Only with `share()` or `multicast {…}.autoconnect()` in the
    // pipeline, only a subscription described exactly "Multicast" (no other operator the
    // generator makes has that name), OpenCombine's side.
    KnownDeviation(
        name: "Ripple by design: share()'s and multicast().autoconnect()'s subscription describes itself as \"Autoconnect\" (Combine's: \"Multicast\")"
    ) { c, events in
        guard c.ops.contains(where: { $0 == .share || $0 == .multicastAutoconnect }) else { return events }
        return events.map { event in
            guard event.hasSuffix(" got subscription Multicast") else { return event }
            return String(event.dropLast("Multicast".count)) + "Autoconnect"
        }
    },
    // Combine's `delay` and `receive(on:)` deliver a completion they scheduled before the
    // subscriber cancelled (OpenCombine's DelayTests and ReceiveOnTests
    // testStrongCaptureWhenSchedulingCompletion, recorded against Combine), OpenCombine's
    // `debounce` does too (not recorded for Combine), and OpenCombine's `delay` ignores a cancel
    // once its upstream completed, delivering the values it scheduled too. Ripple delivers nothing
    // after the cancel (the Porting article's row for them). (Combine's `throttle` and `timeout`
    // deliver nothing either: ThrottleTests.testWeakCaptureWhenSchedulingCompletion,
    // TimeoutTests.testCancelWhileCompletionIsInFlight.) Only with `delay`, `debounce` or
    // `receive(on:)` a virtual-time scheduler, only deliveries after the subscriber's first cancel.
    KnownDeviation(
        name: "Ripple by design: delay, debounce and receive(on:) deliver nothing they scheduled once the subscriber cancelled"
    ) {
        c, events in
        guard c.ops.contains(where: {
            switch $0 {
            case .delay, .debounce, .receiveOnVirtual: true
            default: false
            }
        }), let cancel = events.firstIndex(where: { $0 == "do cancel()" || $0.hasPrefix("S cancels") }) else {
            return events
        }
        // With the deliveries goes the demand they returned, asked of the upstream (not the
        // subscriber's own requests, logged alike in both libraries by the probes right below it).
        let own = subscribersOwnRequests(c, events)
        let after = events.indices.dropFirst(cancel + 1).filter { i in
            let parts = events[i].split(separator: " ")
            return own.contains(i) || !(parts.count == 3 && parts[0].hasPrefix("P") && parts[1] == "request")
        }.map { events[$0] }
        // Scoped to the stage: only what reaches a party from one of them (through operators that
        // pass it on).
        return Array(events[...cancel]) + withoutDeliveries(after[...], at: { scheduledBy(c, $0, isScheduling) })
    },
    // The same rule for a probe below one of them that an operator further down cancelled: no
    // completion reaches it after its cancel (the Porting article's row).
    KnownDeviation(
        name: "Ripple by design: delay, debounce and receive(on:) deliver nothing they scheduled once the subscriber cancelled"
    ) { c, events in
        guard c.ops.contains(where: {
            switch $0 {
            case .delay, .debounce, .receiveOnVirtual: true
            default: false
            }
        }) else { return events }
        var cancelled: Set<Substring> = []
        return events.filter { event in
            let parts = event.split(separator: " ")
            guard parts.count >= 2, parts[0].hasPrefix("P") else { return true }
            if parts[1] == "cancel" { cancelled.insert(parts[0]) }
            if parts[1] == "got" { cancelled.remove(parts[0]) }
            return !(cancelled.contains(parts[0]) && parts[1] == "completion" && scheduledBy(c, parts[0], isScheduling))
        }
    },
    // Combine's `receive(on:)` delivers no value it scheduled before its subscriber cancelled
    // (OpenCombine's ReceiveOnTests.testStrongCaptureWhenSchedulingValue, recorded against
    // Combine: the value stays nil); OpenCombine's delivers it. Only with `receive(on:)` a
    // virtual-time scheduler, only values (and the demand returned for them) reaching a probe
    // after that probe cancelled.
    KnownDeviation(name: "receive(on:) delivers a value it scheduled after its subscriber cancelled") { c, events in
        guard c.ops.contains(.receiveOnVirtual) else { return events }
        var cancelled: Set<Substring> = []
        // Values begun after the cancel, whose "returned" line goes with them (a value in flight
        // when the probe cancelled keeps its own).
        var dropped: [Substring: Int] = [:]
        return events.filter { event in
            let parts = event.split(separator: " ")
            guard parts.count >= 2, parts[0].hasPrefix("P") else { return true }
            let probe = parts[0]
            if parts[1] == "cancel" { cancelled.insert(probe) }
            if parts[1] == "got" { cancelled.remove(probe) }
            guard parts[1] == "value" else { return true }
            if event.contains(" returned ") {
                guard let open = dropped[probe], open > 0 else { return true }
                dropped[probe] = open - 1
                return false
            }
            guard cancelled.contains(probe), scheduledBy(c, probe, { $0 == .receiveOnVirtual }) else { return true }
            dropped[probe, default: 0] += 1
            return false
        }
    },
    // Combine's `throttle` delivers nothing it scheduled once the subscriber cancelled
    // (OpenCombine's ThrottleTests.testWeakCaptureWhenSchedulingCompletion, recorded against
    // Combine: a completion scheduled before the cancel never arrives); OpenCombine's delivers a
    // completion that arrived while a value was pending after a cancel made inside that value's
    // delivery. Only with throttle, only deliveries after the subscriber's first cancel.
    KnownDeviation(name: "throttle delivers a completion it scheduled after the subscriber cancelled") { c, events in
        guard c.ops.contains(where: { if case .throttle = $0 { true } else { false } }),
            let cancel = events.firstIndex(where: { $0 == "do cancel()" || $0.hasPrefix("S cancels") })
        else { return events }
        return Array(events[...cancel])
            + withoutDeliveries(events[(cancel + 1)...], at: {
                scheduledBy(c, $0, { if case .throttle = $0 { true } else { false } })
            })
    },
    // Apple documents `assign(to:)` (a `Published.Publisher`): "canceling the subscription
    // automatically when the Published instance deinitializes". OpenCombine's cancels it only
    // later, when the pipeline is let go. One-sided (Apple's moment swapped in): OpenCombine's
    // probes' cancels after the object's release ("A released", logged from its deinit) move to
    // right after it, in their order; Ripple's history is compared as it is, so a release that
    // cancels nothing (or later) is a divergence.
    KnownDeviation(name: "assign(to: &$published) is cancelled when the object is gone, not at once (Apple's moment swapped in)") {
        c, events in
        guard c.wrap == .assignPublished, let released = events.firstIndex(of: "A released") else { return events }
        let isCancel = { (event: String) -> Bool in
            let parts = event.split(separator: " ")
            return parts.count == 2 && parts[0].hasPrefix("P") && parts[1] == "cancel"
        }
        // Every probe still subscribed when the object went is cancelled then, from the subscriber
        // up as far as the cancel goes at once (not past a `subscribe(on:)`, which cancels on its
        // scheduler; not where a zip's partner is still subscribed: the order zip cancels its
        // upstreams in is not recorded).
        var live: Set<String> = []
        for event in events[..<released] {
            let parts = event.split(separator: " ")
            guard parts.count >= 2, parts[0].hasPrefix("P") else { continue }
            if parts[1] == "got" { live.insert(String(parts[0])) }
            if parts[1] == "completion" || parts[1] == "cancel" { live.remove(String(parts[0])) }
        }
        var reached: [String] = []
        var n = c.ops.filter { $0 == .probe }.count
        for op in c.ops.reversed() {
            if op == .subscribeOnVirtual { break }
            if case .zipWith = op, live.contains("PZ1") { return events }
            if op == .probe {
                reached.append("P\(n)")
                n -= 1
            }
        }
        let after = events[(released + 1)...]
        return Array(events[...released]) + reached.filter(live.contains).map { "\($0) cancel" }
            + after.filter { !isCancel($0) }
    },
    // Narrowed to what Combine documents: a request made after `cancel()` delivers nothing
    // (`Cancellable.cancel()`: "request that your publisher stop calling its downstream
    // subscribers"; OpenCombine's SequenceTests.testCancelOnValue, recorded against Combine: a
    // request after the cancel delivers nothing). What OpenCombine delivers *before* such a
    // request — a `.finished` after a cancel made inside `receive(_:)` — Combine delivers too; where
    // Ripple does not, that is the "Ripple by design" rule below, limited to what the Porting
    // article lists.
    KnownDeviation(name: "delivers for a request made after the subscriber cancelled") { _, events in
        guard let cancel = events.firstIndex(where: { $0 == "do cancel()" || $0.hasPrefix("S cancels") }),
            let request = events[cancel...].firstIndex(where: { $0.hasPrefix("do request(") })
        else {
            return events
        }
        return Array(events[..<request]) + withoutDeliveries(events[request...])
    },
    KnownDeviation(name: "Ripple by design: flatMap and buffer deliver nothing they hold after the subscriber cancelled") {
        c, events in
        // The Porting article's row: values `flatMap` and `buffer` hold (or drain) when the
        // subscriber cancels inside `receive(_:)` are not delivered (OpenCombine delivers them).
        guard c.ops.contains(where: {
            switch $0 {
            case .flatMapJust, .flatMapOneAtATime, .bufferByRequest, .bufferKeepFull, .bufferCustomError: true
            default: false
            }
        }),
            let cancel = events.firstIndex(where: { $0.hasPrefix("S cancels in receive(_:)") })
        else { return events }
        return Array(events[..<cancel]) + withoutDeliveries(events[cancel...], at: { holdsValuesAbove(c, $0) })
    },
    KnownDeviation(name: "Ripple by design: no completion reaches a subscriber after it cancelled") { c, events in
        // The Porting article: `Just`, `Future`, `Optional.Publisher`, `Result.Publisher`, the
        // reducing operators, `replaceError`, `replaceEmpty` and `collect(_:)` send no `.finished`
        // to a subscriber that cancelled inside `receive(_:)` (Combine sends it). Only completions
        // go, and only where one of those is in the pipeline.
        guard byDesignNoFinishedAfterCancel(c),
            let cancel = events.firstIndex(where: { $0 == "do cancel()" || $0.hasPrefix("S cancels") })
        else { return events }
        return Array(events[..<cancel]) + events[cancel...].filter { event in
            let parts = event.split(separator: " ", maxSplits: 2)
            return !(parts.count >= 2 && (parts[0] == "S" || parts[0].hasPrefix("P")) && parts[1] == "completion"
                && byDesignNoFinishedAfterCancel(c, at: parts[0]))
        }
    },
    // `subscribe(_:)` with a subject returns an `AnyCancellable`; Apple's documentation of it:
    // "Deallocation of the result will tear down the subscription stream." OpenCombine's
    // SubjectSubscriber holds the subject weakly and counts itself cancelled once the subject is
    // gone, so when the subject's own subscriber cancelled (the subject released with its
    // subscription) the release at the end of the run cancels nothing. Only for a subject as the
    // subscriber, only a probe's cancel after the run ended, only after the subscriber cancelled.
    // Applied to both sides: it removes Ripple's cancel (OpenCombine's history has none).
    KnownDeviation(
        name: "a subscription that reaches subscribe(subject)'s subscriber after the subject is gone is asked for nothing",
        bothSides: true
    ) { c, events in
        guard c.wrap == .subject, let end = events.lastIndex(of: "end"),
            let cancel = events[..<end].firstIndex(where: { $0 == "do cancel()" || $0.hasPrefix("S cancels") })
        else { return events }
        // A subscription that reaches the subject's SubjectSubscriber after the subject is gone (a
        // subscribe(on:) subscribes later) is asked for nothing either.
        let late = c.ops.contains(.subscribeOnVirtual)
        return Array(events[...cancel]) + events[(cancel + 1)..<end].filter { event in
            let parts = event.split(separator: " ")
            return !(late && parts.count >= 3 && parts[0].hasPrefix("P")
                && ["request", "value", "completion"].contains(parts[1]))
        } + Array(events[end...])
    },
    // The release itself, one-sided (Apple's teardown swapped in): where OpenCombine's history
    // cancels nothing after the run's end, the probe right above the subject (the last one still
    // subscribed) is cancelled once the run let go of the pipeline — after "end" and the second
    // subscriber's events (the runner has already cut the probes' links to each other then, so
    // the cancel goes no further up); Ripple's history is compared as it is.
    KnownDeviation(
        name: "releasing the AnyCancellable subscribe(subject) returned tears the stream down (Apple's teardown swapped in)"
    ) { c, events in
        guard c.wrap == .subject, let end = events.lastIndex(of: "end"),
            events[..<end].contains(where: { $0 == "do cancel()" || $0.hasPrefix("S cancels") })
        else { return events }
        let isCancel = { (event: String) -> Bool in
            let parts = event.split(separator: " ")
            return parts.count == 2 && parts[0].hasPrefix("P") && parts[1] == "cancel"
        }
        guard !events[end...].contains(where: isCancel) else { return events }
        var live: Set<Int> = []
        var liveInners: Set<Substring> = []
        for event in events[..<end] {
            let parts = event.split(separator: " ")
            guard parts.count >= 2, parts[0].hasPrefix("P") else { continue }
            guard let n = Int(parts[0].dropFirst()) else {
                if parts[0].hasPrefix("PZ"), parts[1] == "got" { return events }  // a zip's partner: the order is not recorded
                // An inner publisher's probe (flatMap's, catch's, append's): the teardown reaches
                // it too when it is still subscribed, in an order nothing records.
                if parts[1] == "got" { liveInners.insert(parts[0]) }
                if parts[1] == "completion" || parts[1] == "cancel" { liveInners.remove(parts[0]) }
                continue
            }
            if parts[1] == "got" { live.insert(n) }
            if parts[1] == "completion" || parts[1] == "cancel" { live.remove(n) }
        }
        guard let bottom = live.max(), liveInners.isEmpty else { return events }
        var at = end + 1
        while at < events.count, events[at].hasPrefix("T ") { at += 1 }
        return Array(events[..<at]) + ["P\(bottom) cancel"] + events[at...]
    },
    // flatMap cancels its upstream before its live inner publishers (the Porting article's
    // "Which cancels, in which order" row: Ripple cancels the upstream first, then the rest;
    // the recorded tests see Combine reach the inners first, as OpenCombine does). One-sided
    // (Ripple's order swapped in): only with flatMap's inners probed ("PF…"), only a run of
    // cancels with nothing between in which inner probes' cancels come before the cancel of
    // the probe right above flatMap; that one moves to the front of the run.
    KnownDeviation(name: "Ripple by design: flatMap cancels its upstream before its inner publishers") { c, events in
        guard c.probeInners,
            let at = c.ops.firstIndex(where: {
                switch $0 {
                case .flatMapJust, .flatMapOneAtATime: true
                default: false
                }
            }), at > 0, c.ops[at - 1] == .probe
        else { return events }
        let above = "P\(c.ops[..<at].filter { $0 == .probe }.count) cancel"
        let isCancel = { (event: String) in
            event.hasPrefix("P") && event.hasSuffix(" cancel") && event.split(separator: " ").count == 2
        }
        var out = events
        var i = 0
        while i < out.count {
            guard isCancel(out[i]) else {
                i += 1
                continue
            }
            var j = i
            while j < out.count, isCancel(out[j]) { j += 1 }
            // The run out[i..<j] (the cancel coming down from below, then going up): inner cancels
            // before the upstream's (the probe above flatMap and those above it): the inners' go
            // after the upstream's, each side in its own order.
            let run = Array(out[i..<j])
            if let upstream = run.firstIndex(of: above),
                let inner = run.firstIndex(where: { $0.hasPrefix("PF") }), inner < upstream
            {
                out.replaceSubrange(i..<j, with: run.filter { !$0.hasPrefix("PF") } + run.filter { $0.hasPrefix("PF") })
            }
            i = j
        }
        return out
    },
    // Combine's ObservableObjectPublisher sends every `send()` whatever the demand (OpenCombine's
    // ObservableObjectTests.testBasicBehavior, recorded against Combine), so an operator below it
    // can get a value nobody asked for; what it returns for such a value Combine defines nothing
    // about (`Subscribers.Demand`: a publisher sends no more than requested). Only for an
    // ObservableObjectPublisher source, only the demand a probe's downstream returned for a value
    // that probe received beyond the demand asked of it, in each history by its own count.
    KnownDeviation(
        name: "the demand returned for a value ObservableObjectPublisher sent beyond the demand is not compared",
        bothSides: true
    ) { c, events in
        guard c.source == .objectWillChange else { return events }
        var asked: [Substring: Int] = [:]  // Int.max: unlimited
        var beyond: Set<Substring> = []
        return events.map { event in
            let parts = event.split(separator: " ")
            guard parts.count >= 3, parts[0].hasPrefix("P") else { return event }
            let probe = parts[0]
            func amount(_ word: Substring) -> Int {
                word == "unlimited" ? Int.max : Int(word.dropFirst(4).dropLast()) ?? 0
            }
            func add(_ n: Int) {
                let have = asked[probe, default: 0]
                asked[probe] = have == Int.max || n == Int.max ? Int.max : have + n
            }
            switch parts[1] {
            case "request":
                add(amount(parts[2]))
            case "value" where parts.count == 5 && parts[3] == "returned":
                if beyond.contains(probe) {
                    beyond.remove(probe)
                    return "\(probe) value \(parts[2]) returned (not compared: sent beyond the demand)"
                }
                add(amount(parts[4]))
            case "value":
                let have = asked[probe, default: 0]
                if have == 0 { beyond.insert(probe) } else if have != Int.max { asked[probe] = have - 1 }
            default: break
            }
            return event
        }
    },
    KnownDeviation(name: "delivers after its completion") { _, events in
        guard let done = events.firstIndex(where: { $0.hasPrefix("S completion") }) else { return events }
        return Array(events[...done]) + withoutDeliveries(events[(done + 1)...])
    },
    KnownDeviation(name: "forwards requests and cancels to an upstream that already completed", bothSides: true) {
        _, events in
        var completed: Set<Substring> = []
        // A second cancel of a subscription already cancelled (OpenCombine's buffer passes its
        // downstream's cancel on to the upstream its overflow cancelled): Combine documents no
        // effect for it, and Ripple's operators do not repeat it. Not compared either.
        var cancelled: Set<Substring> = []
        return events.filter { event in
            let parts = event.split(separator: " ")
            guard parts.count >= 2, parts[0].hasPrefix("P") else { return true }
            if parts[1] == "completion" { completed.insert(parts[0]) }
            // A new subscription (retry subscribes again) starts afresh.
            if parts[1] == "got" {
                cancelled.remove(parts[0])
                completed.remove(parts[0])
            }
            if parts.count == 2, parts[1] == "cancel" {
                defer { cancelled.insert(parts[0]) }
                if cancelled.contains(parts[0]) { return false }
            }
            return !((parts[1] == "request" || parts[1] == "cancel") && completed.contains(parts[0]))
        }
    },
    // Not OpenCombine's deviation: Combine's prefix(untilOutputFrom:) subscription describes
    // itself by a longer name than "PrefixUntilOutput" (OpenCombine's PrefixUntilOutputTests,
    // recorded against Apple's Combine, expect a description that only *contains*
    // "PrefixUntilOutput"; every other operator's is matched exactly). Ripple's short name is a
    // deliberate difference (the Porting article).
    KnownDeviation(
        name: "Ripple by design: prefix(untilOutputFrom:)'s subscription describes itself as \"PrefixUntilOutput\" (Combine's name is its longer type name)"
    ) { _, events in
        events.map { event in
            guard let range = event.range(of: "got subscription OpenCombine.Publishers.PrefixUntilOutput<") else {
                return event
            }
            return String(event[..<range.lowerBound]) + "got subscription PrefixUntilOutput"
        }
    },
    // Narrowed to the Porting article's rows, as "no completion reaches a subscriber after it
    // cancelled" below: a completion only where a listed source or operator is in the pipeline,
    // a value only where `flatMap` or `buffer` holds it.
    KnownDeviation(name: "Ripple by design: nothing reaches a probe after it cancelled (Just, Sequence… stop at once)") {
        c, events in
        guard byDesignNoFinishedAfterCancel(c) else { return events }
        // Scoped to the stage above each probe: `holdsValues` and the completion's listed stage.
        let holdsValues = { (probe: Substring) in holdsValuesAbove(c, probe) }
        // Each subscription a probe receives (retry subscribes again) is an epoch; a cancel ends
        // the current one. A delivery belongs to the probe's epoch when it starts; a completion
        // right after a delivery's return belongs to that delivery's epoch (a Sequence finishing
        // its loop after the value returned, though retry has subscribed again meanwhile).
        var epoch: [Substring: Int] = [:]
        var cancelled: Set<String> = []
        var open: [(line: String, epoch: Int)] = []
        var lastReturned: (probe: Substring, epoch: Int)?
        // The "returned" lines of deliveries dropped here: they go too.
        var droppedReturns: [String] = []
        return events.filter { event in
            let parts = event.split(separator: " ", maxSplits: 2)
            let justReturned = lastReturned
            lastReturned = nil
            guard parts.count >= 2, parts[0].hasPrefix("P") else { return true }
            let probe = parts[0]
            if let i = droppedReturns.lastIndex(where: { event.hasPrefix($0) }) {
                droppedReturns.remove(at: i)
                return false
            }
            let current = epoch[probe, default: 0]
            switch parts[1] {
            case "got":
                epoch[probe] = current + 1
            case "cancel":
                cancelled.insert("\(probe)#\(current)")
            case "value" where event.contains(" returned "):
                if let i = open.lastIndex(where: { event.hasPrefix($0.line + " returned") }) {
                    lastReturned = (probe, open[i].epoch)
                    open.remove(at: i)
                }
            case "value":
                if holdsValues(probe), cancelled.contains("\(probe)#\(current)") {
                    droppedReturns.append(event + " returned")
                    return false
                }
                // A value that was already in flight still returns its demand: its "returned"
                // line stays.
                open.append((event, current))
            case "completion":
                let owner = justReturned.flatMap { $0.probe == probe ? $0.epoch : nil } ?? current
                return !(cancelled.contains("\(probe)#\(owner)") && byDesignNoFinishedAfterCancel(c, at: probe))
            default:
                break
            }
            return true
        }
    },
    // One-sided (Ripple's history is compared as it is): a request or returned demand that reaches
    // a cancelled subscription in Ripple's history is a divergence (last session's zip defect hid
    // under the two-sided form). OpenCombine's retry requests the demand its subscriber returned
    // from the value in which it cancelled, its buffer(.keepFull) asks for its refill after the
    // downstream cancelled it from inside a delivery, and its zip hands a request made inside a
    // delivery the subscriber cancelled in back as the returned demand; Combine documents nothing
    // for them (`Cancellable.cancel()` ends the subscription; the Porting article: cancellation is
    // final). Not undone: a request the script or the subscriber makes after cancelling, where it
    // reaches the probes right below the subscriber (the runner's own stages, the same code in
    // both libraries, log what is asked of them before passing it up).
    // Nor a request of `ignoreOutput`'s: it hands its upstream's subscription straight down and
    // keeps no state, so its `.unlimited` request (made after it handed that subscription on, where
    // the downstream may have cancelled it) and every later request reach that subscription in
    // Combine as in Ripple (OpenCombine's IgnoreOutputTests, recorded against Combine:
    // testSendsSubscriptionDownstreamBeforeDemandUpstream, and testDemand, where a request made
    // after two cancels reaches the upstream subscription).
    KnownDeviation(name: "Ripple by design: no request reaches a subscription after it was cancelled") {
        c, events in
        let own = subscribersOwnRequests(c, events)
        let bottom = bottomProbes(c)
        let aboveIgnoreOutput = probesRightAboveIgnoreOutput(c)
        var cancelled: Set<Substring> = []
        // One `.unlimited` per subscription is ignoreOutput's own (the requests of an operator
        // below it that pass through it are not: a reducing operator's, Ripple's asks nothing).
        var ignoreOutputAsked: Set<Substring> = []
        return events.enumerated().filter { i, event in
            let parts = event.split(separator: " ", maxSplits: 2)
            guard parts.count >= 2, parts[0].hasPrefix("P") else { return true }
            if parts[1] == "cancel" { cancelled.insert(parts[0]) }
            if parts[1] == "got" {
                cancelled.remove(parts[0])
                ignoreOutputAsked.remove(parts[0])
            }
            if aboveIgnoreOutput.contains(parts[0]), event == "\(parts[0]) request unlimited",
                !ignoreOutputAsked.contains(parts[0])
            {
                ignoreOutputAsked.insert(parts[0])
                return true
            }
            return own.contains(i) || !(parts[1] == "request" && cancelled.contains(parts[0]))
        }.map(\.element).map { event in
            // Nor does demand returned to it: a value in flight when the subscriber cancelled
            // returns none (the subscriber's request made inside it went nowhere).
            // (Not at the probes right below the subscriber: they log what the subscriber itself
            // returned, alike in both libraries.)
            guard let range = event.range(of: " returned "), event.hasPrefix("P") else { return event }
            let probe = event.prefix { $0 != " " }
            guard !bottom.contains(probe), cancelledBefore(event, probe: probe, in: events) else { return event }
            return String(event[..<range.upperBound]) + "none"
        }
    },
    KnownDeviation(name: "completes twice: a request made inside receive(_:) re-delivers the value and the completion") {
        c, events in
        // replaceError and replaceEmpty alike (their replacement is one element).
        // OpenCombine's nested re-delivery follows the request as it travels up (the probes'
        // "request" lines, which Ripple has too): its values, their returns, then its completions
        // (which end the subscriber). After it, the outer delivery returns and replaceError
        // completes again, which operators that already completed swallow part way down (a
        // `catch` all of it). Undone: the nested values go, and its completions take the place of
        // the outer completion, right after the outer delivery's returns.
        guard c.ops.contains(where: {
            switch $0 {
            case .replaceError, .replaceEmpty: true
            default: false
            }
        }),
            let request = events.firstIndex(where: { $0.hasPrefix("S requests") && $0.hasSuffix("in receive(_:)") })
        else { return events }
        func kind(_ event: String) -> Substring? { event.split(separator: " ").dropFirst().first }
        func isReturn(_ event: String) -> Bool {
            event.hasPrefix("S returns") || (kind(event) == "value" && event.contains(" returned "))
        }
        var start = request + 1
        while start < events.count, events[start].hasPrefix("P"), kind(events[start]) == "request" { start += 1 }
        // An operator below that drops the repeated value (removeDuplicates) leaves only the
        // nested completions, before the outer delivery returned: they go after its returns.
        if start < events.count, kind(events[start]) == "completion" {
            var end = start
            while end < events.count, kind(events[end]) == "completion" { end += 1 }
            var returns = end
            while returns < events.count, isReturn(events[returns]) { returns += 1 }
            guard returns > end else { return events }
            return Array(events[..<start]) + events[end..<returns] + events[start..<end] + events[returns...]
        }
        // The nested re-delivery starts with a value before the outer one returned.
        guard start < events.count, kind(events[start]) == "value", !isReturn(events[start]),
            let nestedEnd = events[start...].firstIndex(where: { $0.hasPrefix("S completion") }),
            let firstCompletion = events[start...nestedEnd].firstIndex(where: { kind($0) == "completion" })
        else { return events }
        let completions = Array(events[firstCompletion...nestedEnd])
        var tail = Array(events[(nestedEnd + 1)...])
        var outer = 0
        while outer < tail.count, isReturn(tail[outer]) { outer += 1 }
        guard outer > 0 else { return events }
        var outerEnd = outer
        while outerEnd < tail.count, kind(tail[outerEnd]) == "completion" { outerEnd += 1 }
        tail.replaceSubrange(outer..<outerEnd, with: completions)
        return Array(events[..<start]) + tail
    },
    KnownDeviation(name: "replaceError delivers its replacement again for the demand returned from it") { c, events in
        // OpenCombine's replaceError, when the subscriber returns more demand from the
        // replacement's delivery, delivers the replacement again (through the probes below it,
        // to the subscriber) before finishing. Undone: a delivery that repeats the one right
        // before it, demand aside, goes.
        guard c.ops.contains(where: { if case .replaceError = $0 { true } else { false } }) else { return events }
        func normalized(_ event: String) -> String {
            if event.hasPrefix("S returns") { return "S returns" }
            if let range = event.range(of: " returned ") { return String(event[..<range.lowerBound]) + " returned" }
            return event
        }
        var undone = events
        // Narrowed: only after a failure has been seen (at a probe, a script's failing send, or a
        // `Fail` source): a repeated delivery before any failure is not the replacement's.
        let failed: Int?
        if c.source == .fail {
            failed = 0
        } else {
            failed = events.firstIndex { $0.contains(" completion failure") || $0.hasPrefix("do send(completion: .failure") }
        }
        guard let failed else { return events }
        var i = failed
        while i < undone.count {
            guard undone[i].hasPrefix("S value") else {
                i += 1
                continue
            }
            var start = i
            while start > 0, undone[start - 1].hasPrefix("P"), undone[start - 1].contains(" value "),
                !undone[start - 1].contains(" returned ")
            {
                start -= 1
            }
            guard let returns = undone[i...].firstIndex(where: { $0.hasPrefix("S returns") }) else { break }
            var end = returns
            while end + 1 < undone.count, undone[end + 1].hasPrefix("P"), undone[end + 1].contains(" returned ") {
                end += 1
            }
            let length = end - start + 1
            let block = undone[start...end].map(normalized)
            if end + length < undone.count, undone[(end + 1)...(end + length)].map(normalized) == block {
                undone.removeSubrange((end + 1)...(end + length))
            }
            i = end + 1
        }
        return undone
    },
    KnownDeviation(name: "zip or buffer completes its subscriber before handing it a subscription") { c, events in
        // zip when its first upstream completes at once; buffer when its upstream fails from inside
        // the prefetch request.
        guard c.ops.contains(where: {
            switch $0 {
            case .zipWith, .bufferByRequest, .bufferKeepFull, .bufferCustomError: true
            default: false
            }
        }),
            let completion = events.firstIndex(where: { $0.hasPrefix("S completion") }),
            let subscription = events.firstIndex(where: { $0.hasPrefix("S got subscription") }),
            completion < subscription
        else { return events }
        // The subscription goes before the completion, with what the subscriber did inside its
        // receive(subscription:).
        var end = subscription + 1
        while end < events.count, events[end].hasPrefix("S "), events[end].hasSuffix("in receive(subscription:)") {
            end += 1
        }
        var undone = events
        let lines = undone[subscription..<end]
        undone.removeSubrange(subscription..<end)
        undone.insert(contentsOf: lines, at: completion)
        return undone
    },
    KnownDeviation(name: "replaceEmpty asks its upstream for unlimited on top of the downstream's demand") { c, events in
        // The probe right above replaceEmpty records the extra request.
        var probes: Set<String> = []
        var probe = 0
        for op in c.ops {
            if op == .probe { probe += 1 }
            guard case .replaceEmpty = op else { continue }
            // The probes above it, up to the first operator that changes demand, see the request
            // (map-like operators pass it up unchanged).
            var k = probe
            var i = c.ops.firstIndex(of: op)! - 1
            while i >= 0, passesDemandUnchanged(c.ops[i]) {
                if c.ops[i] == .probe {
                    probes.insert("P\(k) request unlimited")
                    k -= 1
                }
                i -= 1
            }
        }
        guard !probes.isEmpty else { return events }
        // The extra request follows the downstream's receive(subscription:): the last one each
        // probe saw before the script starts.
        var scriptStart = events.firstIndex { $0.hasPrefix("do ") || $0 == "end" } ?? events.count
        var undone = events
        for probe in probes {
            if let extra = undone[..<scriptStart].lastIndex(of: probe) {
                undone.remove(at: extra)
                scriptStart -= 1
            }
        }
        return undone
    },
]

/// Whether the pipeline has a source or an operator that, by design (the Porting article), sends
/// no `.finished` to a subscriber that cancelled inside `receive(_:)`.
func byDesignNoFinishedAfterCancel(_ c: Case) -> Bool {
    switch c.source {
    // `Record` replays through the `Sequence` subscription (its description is the array's), so
    // the Porting article's `Publishers.Sequence` row covers it.
    case .just, .sequence, .record, .future, .deferredJust: return true
    default: break
    }
    return c.ops.contains(where: listedForNoFinishedAfterCancel)
}

/// The operators the Porting article lists as sending no `.finished` to a subscriber that
/// cancelled inside `receive(_:)`.
private func listedForNoFinishedAfterCancel(_ op: Op) -> Bool {
    switch op {
        case .zipWith, .flatMapOneAtATime, .bufferByRequest, .bufferKeepFull, .bufferCustomError, .handleEvents, .dropFirst:
            // The Porting article's rows for `zip`, `flatMap`, `buffer`, `handleEvents` and `dropFirst`.
            return true
        case .first, .firstWhere, .tryFirstWhere, .last, .lastWhere, .tryLastWhere, .reduce, .tryReduce, .count,
            .min, .max, .tryMin, .tryMax, .collect, .collectCount, .contains, .containsWhere, .tryContainsWhere,
            .allSatisfy, .tryAllSatisfy, .replaceError, .replaceEmpty, .catchJust, .flatMapJust, .switchToLatestJust,
            .dropUntilOutputJust:
            // catch, flatMap, switchToLatest and drop(untilOutputFrom:) over `Just` here: a `Just`
            // inside the pipeline.
            return true
        default:
            return false
    }
}

/// Whether what reaches `party` (the subscriber's side "S"/"A", a probe "P3", an inner probe "PZ1",
/// "PC1", "PA1", "PF1") comes from a stage `isListed` names, through stages that only pass it on:
/// a rule written for one operator (its Porting row, its Apple source) excuses what that operator
/// sends, not another operator's events in the same pipeline. Walking up from the party, a stage
/// that only transforms or filters what passes (`passesEventsOn`) is passed over; the first other
/// stage decides (`isListed`), and above every operator the source does (`sourceListed`). An inner
/// probe's publisher is always a `Just` or a `[…].publisher` (zip's partner, catch's handler,
/// append's and flatMap's inners): `innerListed` decides for them.
func comesFromStage(
    _ c: Case, _ party: Substring, innerListed: Bool,
    sourceListed: (Source) -> Bool, isListed: (Op) -> Bool
) -> Bool {
    var end: Int
    if party == "S" || party == "A" {
        end = c.ops.count
    } else if party.hasPrefix("P"), let n = Int(party.dropFirst()) {
        guard let at = c.ops.indices.filter({ c.ops[$0] == .probe }).dropFirst(n - 1).first else { return false }
        end = at
    } else if party.hasPrefix("P") {
        return innerListed
    } else {
        return false
    }
    while end > 0 {
        end -= 1
        let op = c.ops[end]
        if isListed(op) { return true }
        if !passesEventsOn(op) { return false }
    }
    return sourceListed(c.source)
}

/// `delay`, `debounce` and `receive(on:)` a virtual-time scheduler: the operators the Porting
/// article's row lists as delivering nothing they scheduled once the subscriber cancelled.
@Sendable
func isScheduling(_ op: Op) -> Bool {
    switch op {
    case .delay, .debounce, .receiveOnVirtual: true
    default: false
    }
}

/// Whether `op` only passes on what reaches it (transformed, filtered or counted out, as it
/// arrives) and sends nothing of its own after its downstream cancelled: a completion or a value
/// that reaches a party below it came from a stage above.
private func passesEventsOn(_ op: Op) -> Bool {
    switch op {
    case .probe, .map, .tryMap, .filter, .tryFilter, .compactMap, .tryCompactMap, .dropWhile, .tryDropWhile,
        .prefixWhile, .tryPrefixWhile, .removeDuplicates, .tryRemoveDuplicates, .scan, .tryScan, .mapError,
        .eraseToAnyPublisher, .mapKeyPath, .ignoreOutput, .receiveOnImmediate, .subscribeOnImmediate, .share,
        .multicastAutoconnect:
        return true
    // The concatenations and retry pass a completion on from the publisher they are subscribed to
    // (the source, or their own `[…].publisher`, a Sequence).
    case .retry, .append, .prepend:
        return true
    default:
        return false
    }
}

/// Whether a completion reaching `party` after a cancel comes from a source or an operator the
/// Porting article lists as sending no `.finished` to a subscriber that cancelled inside
/// `receive(_:)` (`byDesignNoFinishedAfterCancel`, scoped to the stage above the party).
func byDesignNoFinishedAfterCancel(_ c: Case, at party: Substring) -> Bool {
    comesFromStage(
        c, party, innerListed: true,
        sourceListed: { source in
            switch source {
            case .just, .sequence, .record, .future, .deferredJust: true
            default: false
            }
        },
        isListed: { op in listedForNoFinishedAfterCancel(op) })
}

/// Whether a value reaching `party` after a cancel comes from `flatMap` or `buffer`, which hold
/// values (the Porting article's row).
func holdsValuesAbove(_ c: Case, _ party: Substring) -> Bool {
    comesFromStage(
        c, party, innerListed: false, sourceListed: { _ in false },
        isListed: { op in
            switch op {
            case .flatMapJust, .flatMapOneAtATime, .bufferByRequest, .bufferKeepFull, .bufferCustomError: true
            default: false
            }
        })
}

/// Whether what reaches `party` comes from one of `ops`' kind (by `matches`).
func scheduledBy(_ c: Case, _ party: Substring, _ matches: @escaping (Op) -> Bool) -> Bool {
    comesFromStage(c, party, innerListed: false, sourceListed: { _ in false }, isListed: matches)
}

/// The positions in `events` of the requests the subscriber (or the script, on its behalf) makes,
/// as the probes right below the subscriber log them passing up: the runner's own stages, the
/// same code in both libraries, so a rule about what an operator asks never takes them.
func subscribersOwnRequests(_ c: Case, _ events: [String]) -> Set<Int> {
    let bottom = bottomProbes(c)
    var out: Set<Int> = []
    var passing = false
    for (i, event) in events.enumerated() {
        if event.hasPrefix("do request(") || event.hasPrefix("S requests") {
            passing = true
            continue
        }
        guard event.hasPrefix("P") else { continue }
        let parts = event.split(separator: " ")
        if passing, parts.count >= 2, parts[1] == "request", bottom.contains(parts[0]) {
            out.insert(i)
        } else {
            passing = false
        }
    }
    return out
}

/// The probes right below the subscriber: those a request of the subscriber's reaches with no
/// operator of the library's between that could keep it — only the runner's probes and the
/// operators that hand their upstream's subscription straight down (`map`, `filter`,
/// `compactMap`, `scan`, key-path `map`, `eraseToAnyPublisher`: in Ripple and Combine alike the
/// subscriber holds the upstream's subscription itself).
func bottomProbes(_ c: Case) -> Set<Substring> {
    var n = c.ops.filter { $0 == .probe }.count
    var out: Set<Substring> = []
    for op in c.ops.reversed() {
        switch op {
        case .probe:
            out.insert(Substring("P\(n)"))
            n -= 1
        case .map, .filter, .compactMap, .scan, .mapKeyPath, .eraseToAnyPublisher:
            continue
        default:
            return out
        }
    }
    return out
}

/// The probes right above an `ignoreOutput` (its upstream: what it asks of them, it asks of the
/// subscription it handed down as it is).
func probesRightAboveIgnoreOutput(_ c: Case) -> Set<Substring> {
    var out: Set<Substring> = []
    var n = 0
    for (i, op) in c.ops.enumerated() where op == .probe {
        n += 1
        if i + 1 < c.ops.count, c.ops[i + 1] == .ignoreOutput { out.insert(Substring("P\(n)")) }
    }
    return out
}

/// Whether `probe` was cancelled before `event` (the first occurrence of `event`) in `events`, with
/// no new subscription between.
private func cancelledBefore(_ event: String, probe: Substring, in events: [String]) -> Bool {
    var cancelled = false
    for line in events {
        if line == event { return cancelled }
        if line == "\(probe) cancel" { cancelled = true }
        if line.hasPrefix("\(probe) got subscription") { cancelled = false }
    }
    return false
}

/// Whether `op` hands a request to its upstream as it is (its own bookkeeping aside: a filter
/// asks for one more for each value it drops).
private func passesDemandUnchanged(_ op: Op) -> Bool {
    switch op {
    case .probe, .map, .tryMap, .scan, .tryScan, .mapError, .handleEvents, .eraseToAnyPublisher, .mapKeyPath,
        .filter, .tryFilter, .compactMap, .tryCompactMap, .removeDuplicates, .tryRemoveDuplicates, .dropWhile,
        .tryDropWhile, .prefixWhile, .tryPrefixWhile:
        return true
    default:
        return false
    }
}

/// Where Ripple differs from Combine on purpose (see the Porting article): a case whose only
/// difference is one of these counts as known, named "Ripple by design: …".
func deliberateRippleDifference(_ c: Case, openCombine: [String], ripple: [String]) -> String? {
    // Cancellation is final: a subscription cancelled before its upstream subscription arrived
    // cancels that subscription when it arrives, and delivers nothing (several Combine operators
    // ignore such an early cancel, then request and deliver).
    // Nothing is delivered, not even a completion: Combine's `handleEvents` and `collect(_:)`
    // forward a completion that arrives after a cancel (OpenCombine's
    // HandleEventsTests.testCancelAlreadyCancelled and CollectByCountTests.testCancelThenFinish,
    // recorded against Combine), and OpenCombine's `dropFirst` does too; the Porting article lists
    // the difference (its row for `dropFirst(_:)` and the operators that are their own
    // subscription, and `handleEvents`'s).
    // Narrowed: nothing at the probes either — after the cancel no request or value passes
    // Ripple's probes (a source that completes as it is subscribed, `Fail`, still completes there).
    let probeActs = { (event: String) -> Bool in
        let parts = event.split(separator: " ")
        return parts.count >= 2 && parts[0].hasPrefix("P") && ["request", "value"].contains(parts[1])
    }
    // (The subscriber's own request after its cancel, logged alike by the probes right below it,
    // is not the operators'.)
    let own = subscribersOwnRequests(c, ripple)
    if c.plan.cancelInReceiveSubscription,
        let cancel = ripple.firstIndex(of: "S cancels in receive(subscription:)"),
        Array(openCombine.prefix(cancel + 1)) == Array(ripple.prefix(cancel + 1)),
        !ripple.indices.dropFirst(cancel).contains(where: { i in
            ripple[i].hasPrefix("S value") || ripple[i].hasPrefix("S completion") || (probeActs(ripple[i]) && !own.contains(i))
        })
    {
        return "Ripple by design: a cancel made before the upstream subscription arrives is final (no values, no completion)"
    }
    // The same for subscribe(on:), its own subscription: a cancel made before the scheduled
    // subscription reached the upstream cancels that subscription when it arrives, and nothing is
    // asked or delivered (the Porting article's row). Recognised where the histories agree up to
    // the subscriber's cancel, and after it Ripple's history has a subscription arriving, no
    // request and no delivery to the subscriber.
    // (subscribe(on:) performs requests and cancels on its scheduler too, in the order they were
    // made: a request made before the cancel still reaches the upstream, then the cancel.)
    if c.ops.contains(.subscribeOnVirtual),
        let cancel = ripple.firstIndex(where: { $0 == "do cancel()" || $0.hasPrefix("S cancels") }),
        Array(openCombine.prefix(cancel + 1)) == Array(ripple.prefix(cancel + 1)),
        !ripple[..<cancel].contains(where: { $0.hasPrefix("P") && $0.contains(" got subscription ") })
            || ripple[cancel...].contains(where: { $0.contains(" got subscription ") }),
        !ripple[cancel...].contains(where: { $0.hasPrefix("S value") || $0.hasPrefix("S completion") }),
        ripple[cancel...].filter({ $0.hasPrefix("P") && $0.contains(" got subscription ") }).allSatisfy({ got in
            let probe = got.prefix { $0 != " " }
            return ripple[cancel...].contains { $0 == "\(probe) cancel" || $0.hasPrefix("\(probe) completion ") }
        })
    {
        return "Ripple by design: a cancel made before the upstream subscription arrives is final (no values, no completion)"
    }
    // Demand is a limit: replaceEmpty asks its upstream for no more than the downstream asked
    // for, where Combine's (and OpenCombine's) asks for unlimited and can deliver more than was
    // requested. Ripple's history is then OpenCombine's with the extra requests and the
    // over-delivered values left out: its values are some of OpenCombine's, in order, possibly later
    // (when demand arrives; a CurrentValueSubject then hands over only its latest value).
    func values(_ events: [String]) -> [String] {
        events.filter { $0.hasPrefix("S value") || $0.hasPrefix("S completion") }
    }
    // Values OpenCombine's upstream sent before anybody asked can also be lost further down (an
    // operator with no demand drops them), where Ripple's, sent once asked, arrive: then
    // OpenCombine's values are some of Ripple's.
    // Narrowed (the planted `replaceEmptyNeverCompletes` and a zip stall hid here): where Ripple's
    // subscriber ends up with fewer values than OpenCombine's, or another completion (or none),
    // only a subscriber that had got all the demand it asked for where the histories part
    // explains it — Ripple's upstream is then waiting to be asked (or a subject's value, sent
    // without demand, was dropped). Where the histories part is judged without the requests
    // replaceEmpty's demand changes (OpenCombine's extra `.unlimited`, Ripple's limited ones). A completion needs no demand: `Subscriber.receive(completion:)`
    // "Tells the subscriber that the publisher has completed publishing", demand or not.
    // Scoped to what the row covers (the library's `ReplaceEmpty` doc comment, the Porting row
    // "asks its upstream for exactly the downstream's demand"): Ripple's subscriber gets no more
    // than it asked for, and Ripple has values OpenCombine lacks only where OpenCombine's upstream
    // is seen running ahead below replaceEmpty (a probe or the subscriber given a value beyond
    // what it asked for, which an operator below may then drop).
    if c.ops.contains(where: { if case .replaceEmpty = $0 { true } else { false } }),
        staysWithinDemand(ripple), !withholdsASubjectsCompletion(c, openCombine, ripple),
        isSubsequence(values(ripple), of: values(openCombine))
            || (isSubsequence(values(openCombine), of: values(ripple)) && runsAheadBelowReplaceEmpty(c, openCombine))
            || overDeliversFirst(openCombine, ripple) || asksForMore(openCombine, than: ripple),
        nothingMissing(ripple, comparedWith: openCombine)
            || demandExhausted(ripple[..<whereDemandPartsThem(openCombine, ripple)])
    {
        return "Ripple by design: replaceEmpty does not ask for more than the downstream's demand"
    }
    // Stack safety: catch, retry and concatenation follow a publisher that completes while the one
    // before it is still being subscribed (or asked for its first values) from a loop, once the
    // delivery under way has returned, where Combine nests it inside that delivery. The same
    // events, with the in-flight delivery's return earlier.
    if c.ops.contains(where: {
        switch $0 {
        case .catchJust, .retry, .append, .prepend: true
        default: false
        }
    }) {
        // The same events, and the same order as each party sees it (the subscriber, each probe);
        // only how the parties' events interleave differs.
        func party(_ event: String) -> Substring { event.prefix { $0 != " " } }
        // Narrowed: each party's events keep their place among the script's steps (a completion
        // may not move past a send).
        func byParty(_ events: [String]) -> [Substring: [String]] {
            var out: [Substring: [String]] = [:]
            var step = 0
            for event in events {
                if event.hasPrefix("do ") || event == "end" {
                    step += 1
                    continue
                }
                out[party(event), default: []].append("\(step) " + event)
            }
            return out
        }
        let returned = { (event: String) in event.hasPrefix("P") && event.contains(" returned ") }
        let steps = { (events: [String]) in events.filter { $0.hasPrefix("do ") || $0 == "end" } }
        if openCombine.filter({ !returned($0) }) == ripple.filter({ !returned($0) })
            || byParty(openCombine) == byParty(ripple),
            openCombine.sorted() == ripple.sorted(), steps(openCombine) == steps(ripple)
        {
            return "Ripple by design: catch, retry and concatenations follow the next publisher from a loop, later than Combine nests it"
        }
    }
    return nil
}

/// Whether the histories part where OpenCombine delivers something (a value or a completion, to
/// the subscriber or through a probe) or asks for `.unlimited`, and Ripple delivers nothing (yet):
/// with replaceEmpty's `.unlimited` request, OpenCombine's upstream runs ahead of the
/// downstream's demand.
private func overDeliversFirst(_ openCombine: [String], _ ripple: [String]) -> Bool {
    guard let i = (0..<min(openCombine.count, ripple.count)).first(where: { openCombine[$0] != ripple[$0] }) else {
        return false
    }
    return (isDelivery(openCombine[i]) || openCombine[i].hasSuffix("request unlimited")) && !isDelivery(ripple[i])
}

/// The index in Ripple's history where it parts from OpenCombine's, the requests replaceEmpty's
/// demand changes aside: where the two differ, OpenCombine's `.unlimited` request and Ripple's
/// request of a probe are passed over.
private func whereDemandPartsThem(_ openCombine: [String], _ ripple: [String]) -> Int {
    var i = 0
    var j = 0
    let isProbeRequest = { (event: String) in event.hasPrefix("P") && event.contains(" request ") }
    while i < openCombine.count, j < ripple.count {
        if openCombine[i] == ripple[j] {
            i += 1
            j += 1
        } else if openCombine[i].hasSuffix("request unlimited") {
            i += 1
        } else if isProbeRequest(ripple[j]) {
            j += 1
        } else {
            break
        }
    }
    return j
}

/// Whether Ripple's subscriber has as many values as OpenCombine's and the same completion.
private func nothingMissing(_ ripple: [String], comparedWith openCombine: [String]) -> Bool {
    let values = { (events: [String]) in events.filter { $0.hasPrefix("S value") }.count }
    let completion = { (events: [String]) in events.first { $0.hasPrefix("S completion") } }
    return values(ripple) >= values(openCombine) && completion(ripple) == completion(openCombine)
}

/// Whether the subscriber received every value it asked for (a finite demand, all met) by the
/// time it cancelled, completed or the run ended: nothing more may reach it until it asks again.
func demandExhausted(_ events: ArraySlice<String>) -> Bool {
    var demand = 0
    var values = 0
    for event in events {
        if event == "do cancel()" || event.hasPrefix("S cancels") || event.hasPrefix("S completion") { break }
        if event.hasPrefix("S value") { values += 1; continue }
        guard let asked = demandAsked(by: event) else { continue }
        if asked == "unlimited" { return false }
        if asked.hasPrefix("max("), let n = Int(asked.dropFirst(4).dropLast()) { demand += n }
    }
    return values >= demand
}

/// Whether Ripple's subscriber misses OpenCombine's completion (or has another) where the script
/// sent that completion to a subject source, before any cancel, with only operators that pass it
/// on above replaceEmpty: a subject passes a completion on whatever the demand
/// (`Subscriber.receive(completion:)` needs none), so replaceEmpty's demand cannot explain it.
private func withholdsASubjectsCompletion(_ c: Case, _ openCombine: [String], _ ripple: [String]) -> Bool {
    guard c.source == .passthrough || { if case .currentValue = c.source { true } else { false } }(),
        let at = c.ops.firstIndex(where: { if case .replaceEmpty = $0 { true } else { false } }),
        c.ops[..<at].allSatisfy(passesEventsOn)
    else { return false }
    let completion = { (events: [String]) in events.first { $0.hasPrefix("S completion") } }
    guard completion(ripple) != completion(openCombine),
        let sent = ripple.firstIndex(where: { $0.hasPrefix("do send(completion:") })
    else { return false }
    return !ripple[..<sent].contains { $0 == "do cancel()" || $0.hasPrefix("S cancels") }
}

/// Whether the subscriber never received more values than it had asked for.
private func staysWithinDemand(_ events: [String]) -> Bool {
    var demand = 0
    var values = 0
    for event in events {
        if event.hasPrefix("S value") {
            values += 1
            if values > demand { return false }
            continue
        }
        guard let asked = demandAsked(by: event) else { continue }
        if asked == "unlimited" { return true }
        if asked.hasPrefix("max("), let n = Int(asked.dropFirst(4).dropLast()) { demand += n }
    }
    return true
}

/// Whether OpenCombine's history shows a party below the (first) replaceEmpty — a probe, or the
/// subscriber — receiving a value beyond the demand asked of it: its upstream running ahead.
private func runsAheadBelowReplaceEmpty(_ c: Case, _ events: [String]) -> Bool {
    guard let at = c.ops.firstIndex(where: { if case .replaceEmpty = $0 { true } else { false } }) else { return false }
    let above = c.ops[..<at].filter { $0 == .probe }.count
    if !staysWithinDemand(events) { return true }
    // A subject between the pipeline and the subscriber drops a value its subscriber did not ask
    // for where no probe sees it (PassthroughSubject: values without demand are dropped).
    if c.wrap == .subject || c.wrap == .anySubscriberSubject, events.contains(where: { $0.hasPrefix("do send(") }) {
        return true
    }
    var asked: [Substring: Int] = [:]  // Int.max: unlimited
    for event in events {
        let parts = event.split(separator: " ")
        guard parts.count >= 3, parts[0].hasPrefix("P"), let n = Int(parts[0].dropFirst()), n > above else { continue }
        let probe = parts[0]
        func add(_ word: Substring) {
            let amount = word == "unlimited" ? Int.max : Int(word.dropFirst(4).dropLast()) ?? 0
            let have = asked[probe, default: 0]
            asked[probe] = have == Int.max || amount == Int.max ? Int.max : have + amount
        }
        switch parts[1] {
        case "request": add(parts[2])
        case "value" where parts.count == 5 && parts[3] == "returned": add(parts[4])
        case "value":
            let have = asked[probe, default: 0]
            if have == 0 { return true }
            if have != Int.max { asked[probe] = have - 1 }
        default: break
        }
    }
    return false
}

/// Whether OpenCombine's history has more unlimited requests and at least as many values.
private func asksForMore(_ openCombine: [String], than ripple: [String]) -> Bool {
    func count(_ events: [String], _ test: (String) -> Bool) -> Int { events.filter(test).count }
    let unlimited = { (event: String) in event.hasSuffix("request unlimited") }
    let value = { (event: String) in event.hasPrefix("S value") }
    return count(openCombine, unlimited) > count(ripple, unlimited) && count(openCombine, value) >= count(ripple, value)
}

private func isSubsequence(_ small: [String], of large: [String]) -> Bool {
    var i = small.startIndex
    for event in large where i < small.endIndex && small[i] == event { i += 1 }
    return i == small.endIndex
}

/// `events` without the deliveries in it: each value with the demand the subscriber returned for
/// it, and each completion (a value already in flight keeps its return).
private func withoutDeliveries(_ events: ArraySlice<String>, at droppable: (Substring) -> Bool = { _ in true }) -> [String] {
    var kept: [String] = []
    // Dropped values the subscriber has not returned from yet (a request made inside one can
    // re-deliver, nested).
    var droppedValues = 0
    // The "returned" lines that close dropped probe deliveries; everything inside them goes too.
    var open: [String] = []
    for event in events {
        if let last = open.last {
            // A delivery through the same probe nested inside the dropped one (a request made
            // inside it re-delivers) closes first.
            if isDelivery(event), event.hasPrefix("P"), event.contains(" value ") {
                open.append(event + " returned")
            } else if event.hasPrefix(last) {
                open.removeLast()
            }
            continue
        }
        if isDelivery(event), droppable(event.prefix { $0 != " " }) {
            if event.hasPrefix("S value") { droppedValues += 1 }
            if event.hasPrefix("P") && event.contains(" value ") { open.append(event + " returned") }
            continue
        }
        if droppedValues > 0 && event.hasPrefix("S ") {
            // What the subscriber did inside that dropped delivery goes with it.
            if event.hasPrefix("S returns") { droppedValues -= 1 }
            continue
        }
        kept.append(event)
    }
    // An instant whose events all went is not stamped either.
    return kept.enumerated().filter { i, event in
        !(event.hasPrefix("at ") && (i + 1 == kept.count || kept[i + 1].hasPrefix("at ")))
    }.map(\.element)
}

/// A value or a completion, reaching the subscriber or passing a probe.
private func isDelivery(_ event: String) -> Bool {
    let parts = event.split(separator: " ", maxSplits: 2)
    guard parts.count >= 2, parts[0] == "S" || parts[0].hasPrefix("P") else { return false }
    // The demand returned by a value already in flight is not a new delivery.
    if event.contains("returned") { return false }
    return ["value", "completion"].contains(parts[1])
}

/// OpenCombine's zip, when its first upstream completes during its own subscription, completes
/// its subscriber before handing it a subscription, then hands it one and completes it again once
/// the other upstream is subscribed; its buffer does the same when its upstream fails from inside
/// the prefetch request. What follows in OpenCombine's history is no reference (the
/// operator below may trap: `FilterProducer.swift:124` above, or ignore the early completion and
/// produce a value). Recognised when OpenCombine's history shows a subscriber completed before it
/// got its subscription, when zip's partner is `[]`, when a probe above zip completes before the
/// subscriber got its subscription, when an upstream of zip or buffer completes during its own
/// subscription (seen by running the case again with probes above them), or when the source
/// completes at once (`Fail`, `Empty`, `[]`) straight into zip.
func zipCompletesBeforeSubscription(_ c: Case, openCombine: [String]) -> String? {
    let buffered = c.ops.contains {
        switch $0 {
        case .bufferByRequest, .bufferKeepFull, .bufferCustomError: true
        default: false
        }
    }
    let zip = c.ops.firstIndex(where: { if case .zipWith = $0 { true } else { false } })
    guard zip != nil || buffered else { return nil }
    let name = "zip or buffer mishandles an upstream that completes during its own subscription (what follows is no reference)"
    var subscribed: Set<Substring> = []
    for event in openCombine {
        let parts = event.split(separator: " ")
        guard parts.count >= 2, parts[0] == "S" || parts[0].hasPrefix("P") else { continue }
        if parts[1] == "got" { subscribed.insert(parts[0]) }
        if parts[1] == "completion", !subscribed.contains(parts[0]) { return name }
    }
    if upstreamCompletesDuringSubscription(c) { return name }
    guard let zip else { return nil }
    // A partner that completes at once (`[]`), or an upstream seen completing (at a probe above
    // zip) before the subscriber got its subscription: zip completed during its own subscription.
    if c.ops.contains(where: { $0 == .zipWith([]) }) { return name }
    let probesAbove = c.ops[..<zip].filter { $0 == .probe }.count
    if probesAbove > 0, let subscribed = openCombine.firstIndex(where: { $0.hasPrefix("S got subscription") }) {
        let above = Set((1...probesAbove).map { "P\($0)" })
        let early = openCombine[..<subscribed].contains { event in
            let parts = event.split(separator: " ")
            return parts.count >= 2 && parts[1] == "completion" && above.contains(String(parts[0]))
        }
        if early { return name }
    }
    let failure: Bool
    switch c.source {
    case .fail: failure = true
    case .empty(completeImmediately: true): failure = false
    case .sequence(let values) where values.isEmpty: failure = false
    default: return nil
    }
    return c.ops[..<zip].allSatisfy({ passesCompletionAtOnce($0, failure: failure) }) ? name : nil
}

/// Whether, run again with a probe right above and right below each buffer, Ripple's history
/// shows a buffer finishing while it still holds values: `.finished` passes its probe below after
/// fewer values than passed its probe above (a buffer delivers what it holds before its upstream's
/// `.finished`; the subscriber's missing demand, or OpenCombine losing that completion, does not
/// make an early one right). Not over `ObservableObjectPublisher`, which sends whatever the demand
/// (a full buffer drops values there).
private func finishesABufferHoldingValues(_ c: Case) -> Bool {
    guard c.source != .objectWillChange else { return false }
    var instrumented = c
    instrumented.ops = []
    var pairs: [(above: String, below: String)] = []
    var probes = 0
    for op in c.ops {
        switch op {
        case .bufferByRequest, .bufferKeepFull, .bufferCustomError:
            instrumented.ops += [.probe, op, .probe]
            pairs.append(("P\(probes + 1)", "P\(probes + 2)"))
            probes += 2
        case .probe:
            probes += 1
            instrumented.ops.append(op)
        default:
            instrumented.ops.append(op)
        }
    }
    guard !pairs.isEmpty else { return false }
    let ripple = histories(instrumented).ripple
    func values(_ probe: String, before end: Int) -> Int {
        ripple[..<end].filter { $0.hasPrefix(probe + " value ") && !$0.contains(" returned ") }.count
    }
    return pairs.contains { above, below in
        guard let finished = ripple.firstIndex(of: below + " completion finished") else { return false }
        return values(above, before: finished) > values(below, before: finished)
    }
}

/// Whether Ripple's history finishes a party (the subscriber, `assign`'s object, a probe) to which
/// OpenCombine's history delivers more values than Ripple's did: a premature `.finished` of
/// Ripple's, never what OpenCombine mishandling a completion explains (it loses one, or what
/// follows it, sends it early, or turns a failure into `.finished` — on which an operator below
/// may make a value of its own, `reduce`'s: a failure of Ripple's there is not premature).
func finishesAPartyShortOf(_ openCombine: [String], ripple: [String]) -> Bool {
    /// Per party: the values it got, and whether it finished.
    func tally(_ events: [String]) -> [Substring: (values: Int, finished: Bool)] {
        var out: [Substring: (values: Int, finished: Bool)] = [:]
        for event in events {
            let parts = event.split(separator: " ")
            guard parts.count >= 2, parts[0] == "S" || parts[0] == "A" || parts[0].hasPrefix("P") else { continue }
            var entry = out[parts[0]] ?? (0, false)
            if parts[1] == "value", !event.contains(" returned ") { entry.values += 1 }
            if parts[1] == "completion", parts.count >= 3, parts[2] == "finished" { entry.finished = true }
            out[parts[0]] = entry
        }
        return out
    }
    let theirs = tally(openCombine)
    return tally(ripple).contains { party, mine in
        mine.finished && (theirs[party]?.values ?? 0) > mine.values
    }
}

/// Whether the histories agree up to the first completion either of them shows (a subscriber's or
/// a probe's): they part at a completion or after one.
private func agreeUntilACompletion(_ c: Case, _ openCombine: [String], _ ripple: [String]) -> Bool {
    // Descriptions aside (OpenCombine's long prefix(untilOutputFrom:) name).
    let openCombine = knownDeviations.filter { $0.name.hasPrefix("Ripple by design: prefix(untilOutputFrom:)") }
        .reduce(openCombine) { events, deviation in deviation.undo(c, events) }
    let common = min(openCombine.count, ripple.count)
    let split = (0..<common).first { openCombine[$0] != ripple[$0] } ?? common
    let isCompletion = { (event: String) -> Bool in
        let parts = event.split(separator: " ", maxSplits: 2)
        return parts.count >= 2 && (parts[0] == "S" || parts[0].hasPrefix("P")) && parts[1] == "completion"
    }
    // Narrowed: Ripple finishing (a subscriber or a probe) where OpenCombine still delivers a
    // value to that party is a premature completion, not OpenCombine's mishandled one.
    if split < common {
        let r = ripple[split].split(separator: " "), o = openCombine[split].split(separator: " ")
        if r.count >= 2, o.count >= 2, r[0] == o[0], isCompletion(ripple[split]), o[1] == "value",
            !openCombine[split].contains(" returned ")
        {
            return false
        }
    }
    return openCombine[..<min(split + 1, openCombine.count)].contains(where: isCompletion)
        || ripple[..<min(split + 1, ripple.count)].contains(where: isCompletion)
}

/// OpenCombine's zip hands the demand the downstream returns for a tuple only to the upstream whose
/// value completed it (as the return of its `receive(_:)`); Combine asks the other upstreams for it
/// too (CombineX's ZipSpec "should send as many as demands", run against Combine: two subjects, 10
/// requested and 2 returned make 12 tuples; OpenCombine's rule makes 10), and so does Ripple. Once
/// zip may have been returned demand, OpenCombine's history is no reference. Recognised where the
/// histories part: the case has a zip; before that point a nonzero demand was returned below zip
/// (by the subscriber, or through a probe under zip) or an operator under zip (which can return
/// demand of its own, as `filter` and `buffer` do) took part; and Ripple's event there is a request
/// of a probe above zip, or an event below zip (a tuple the unprobed partner could make with the
/// demand it was given) — or, with no probe above zip to show the request, any event.
func zipAsksEveryUpstreamForReturnedDemand(_ c: Case, openCombine: [String], ripple: [String]) -> String? {
    guard let zipAt = c.ops.lastIndex(where: { if case .zipWith = $0 { true } else { false } }) else { return nil }
    let name = "zip asks only the upstream that completed a tuple for the demand returned for it (what follows is no reference)"
    let probesAbove = c.ops[..<zipAt].filter { $0 == .probe }.count
    let common = min(openCombine.count, ripple.count)
    let split = (0..<common).first { openCombine[$0] != ripple[$0] } ?? common
    guard split < ripple.count else { return nil }
    let operatorBelow = c.ops[(zipAt + 1)...].contains { $0 != .probe }
    let returnedBelow = ripple[..<split].contains { event in
        let parts = event.split(separator: " ")
        if parts.count == 3, parts[0] == "S", parts[1] == "returns" {
            return parts[2] != "none"
        }
        guard parts.count >= 4, parts[0].hasPrefix("P"), let probe = Int(parts[0].dropFirst()), probe > probesAbove,
            parts[parts.count - 2] == "returned"
        else { return false }
        return parts[parts.count - 1] != "none"
    }
    guard operatorBelow || returnedBelow else { return nil }
    // Narrowed (one-sided): Ripple's event there must be Apple's request — of the partner's probe
    // ("PZ1"), or of a probe above zip. (Where the returned demand shows at a probe below zip or the
    // subscriber, `AppleExpectations.swift` swaps the request into OpenCombine's history instead.)
    let next = ripple[split].split(separator: " ")
    guard next.count == 3, next[1] == "request" else { return nil }
    if next[0] == "PZ1" { return name }
    guard next[0].hasPrefix("P"), let probe = Int(next[0].dropFirst()), probe <= probesAbove else { return nil }
    return name
}

/// Whether, run again with a probe right above each zip and buffer, OpenCombine shows one of
/// their upstreams completing during its own subscription: the probe's completion follows its
/// subscription with no action of the script between (the subscription, its first requests and
/// the completion all happen inside one call). OpenCombine's zip and buffer mishandle that
/// completion — they lose it or what follows, or send it before the subscription — so what comes
/// after is no reference. Ripple's own tests pin its behaviour there (the completion passes on,
/// after the subscription).
private func upstreamCompletesDuringSubscription(_ c: Case) -> Bool {
    let (instrumented, watched) = probedAboveZipAndBuffer(c)
    var subscribed: Set<Substring> = []
    for event in histories(instrumented).openCombine {
        if event.hasPrefix("do ") {
            subscribed.removeAll()
            continue
        }
        let parts = event.split(separator: " ")
        guard parts.count >= 2, watched.contains(String(parts[0])) else { continue }
        if parts[1] == "got" { subscribed.insert(parts[0]) }
        if parts[1] == "completion", subscribed.contains(parts[0]) { return true }
    }
    return false
}

/// Whether the histories agree up to the first completion either shows once a probe sits right
/// above each zip and buffer: there the completion OpenCombine mishandles is seen where it
/// happens, not only where (or whether) it reaches a probe or the subscriber below (seeds 85456
/// and 169558 of `--extended`: a buffer whose upstream fails inside the request the subscriber's
/// demand brings, under a subject or another buffer; OpenCombine loses the value and the failure).
private func agreeUntilACompletionAboveZipAndBuffer(_ c: Case) -> Bool {
    let instrumented = probedAboveZipAndBuffer(c).case
    let (openCombine, ripple) = histories(instrumented)
    return agreeUntilACompletion(instrumented, openCombine, ripple)
}

/// `c` with a probe right above each zip and buffer, and the names of those probes.
private func probedAboveZipAndBuffer(_ c: Case) -> (case: Case, watched: Set<String>) {
    var instrumented = c
    instrumented.ops = []
    var watched: Set<String> = []
    var probes = 0
    for op in c.ops {
        switch op {
        case .zipWith, .bufferByRequest, .bufferKeepFull, .bufferCustomError:
            instrumented.ops.append(.probe)
            probes += 1
            watched.insert("P\(probes)")
        case .probe:
            probes += 1
        default:
            break
        }
        instrumented.ops.append(op)
    }
    return (instrumented, watched)
}

/// Whether `op` hands an immediate completion (a failure, or `.finished` with no element) straight
/// on, so the next operator is completed during its own subscription too.
private func passesCompletionAtOnce(_ op: Op, failure: Bool) -> Bool {
    switch op {
    case .replaceError, .catchJust, .retry, .append, .prepend, .replaceEmpty, .zipWith:
        return false
    case .first, .firstWhere, .tryFirstWhere, .last, .lastWhere, .tryLastWhere, .reduce, .tryReduce, .count,
        .min, .max, .tryMin, .tryMax, .collect, .collectCount, .contains, .containsWhere, .tryContainsWhere,
        .allSatisfy, .tryAllSatisfy, .scan, .tryScan:
        // These send a value on `.finished` (or at least may); a failure passes straight on.
        return failure
    default:
        return true
    }
}

/// OpenCombine's zip does not finish when an upstream that already finished has no value left
/// for the next tuple; Combine finishes right after the tuple that drained it (CombineX's ZipSpec
/// "should wait unapplied values before finish", run against Combine: "0a", "1b", then `.finished`
/// without waiting for "c"), and so does Ripple, cancelling the other upstreams. Recognised only
/// with a probe right above zip: the histories part where Ripple cancels that probe, or a completion
/// reaches the subscriber or a probe below zip, after that probe had passed on at least as many
/// values as zip's `[…].publisher` partner has (the partner, which finishes after its last value,
/// is drained). OpenCombine's history is no reference from there.
func zipFinishesOnceAFinishedUpstreamIsDrained(_ c: Case, openCombine: [String], ripple: [String]) -> String? {
    guard let zipAt = c.ops.firstIndex(where: { if case .zipWith = $0 { true } else { false } }),
        zipAt > 0, c.ops[zipAt - 1] == .probe, case .zipWith(let partner) = c.ops[zipAt], !partner.isEmpty
    else { return nil }
    let above = "P\(c.ops[..<zipAt].filter { $0 == .probe }.count)"
    let common = min(openCombine.count, ripple.count)
    guard let split = (0..<common).first(where: { openCombine[$0] != ripple[$0] }) else { return nil }
    let passed = ripple[..<split].filter { $0.hasPrefix(above + " value ") && !$0.contains(" returned ") }.count
    guard passed >= partner.count else { return nil }
    let parts = ripple[split].split(separator: " ")
    guard parts.count >= 2 else { return nil }
    let probesBelow = Set(((c.ops[..<zipAt].filter { $0 == .probe }.count + 1)...(c.ops.filter { $0 == .probe }.count + 1))
        .map { "P\($0)" })
    let cancelsAbove = parts[0] == above && parts[1] == "cancel"
    let completesBelow = (parts[0] == "S" || probesBelow.contains(String(parts[0]))) && parts[1] == "completion"
    guard cancelsAbove || completesBelow else { return nil }
    return "zip does not finish once an upstream that finished is drained (what follows is no reference)"
}

/// Each party's events (the subscriber's side "S"/"A", each probe), stamped with the virtual
/// instant they happened at, and the script's steps with the instants: what stays when only the
/// interleaving of the parties changes.
private func byParty(_ events: [String]) -> [Substring: [String]] {
    var out: [Substring: [String]] = [:]
    var now = "0ms"
    for event in events {
        if event.hasPrefix("at ") {
            now = String(event.dropFirst(3))
            continue
        }
        let party = event.prefix { $0 != " " }
        let key: Substring = party == "S" || party == "A" || party == "T" || party.hasPrefix("P") ? party : "script"
        out[key, default: []].append(now + " " + event)
    }
    return out
}

/// OpenCombine's throttle asks its upstream for `.unlimited` before it hands its own subscription
/// downstream; Combine hands it on first, so a value the upstream sends inside that request (a
/// `@Published` property's current value) finds the downstream's demand and is delivered:
/// heckj/swiftui-notes' UsingCombineTests/DebounceAndThrottleTests.swift (testThrottleLatestFalse
/// and testThrottleLatestTrue, run against Combine on iOS 14.1) receive the initial value -1
/// through `$intValue.throttle(…).sink` ([-1, 1, 3, 6] and [-1, 2, 5, 6]). So only the
/// interleaving of the parties above the throttle with those below differs: each party's own
/// events (with their instants) are the same. Where OpenCombine dropped such a value, the
/// throttle's timing (it waits an interval after a delivery) and which value it holds differ from
/// there on: known if every party agrees up to the first event where a party below the throttle
/// parts, and that event is a value Ripple delivers, from a source that sends when asked, to a
/// subscriber that asked for some in receive(subscription:).
///
/// Also here: OpenCombine's `throttle(latest: true)` takes the downstream's demand when it
/// schedules a delivery, so a newer value arriving before the delivery runs, once that took the
/// last demand, is dropped and the older value published. Apple documents `latest` as "whether
/// to publish the most recent element" (`throttle(for:scheduler:latest:)`); Ripple publishes the
/// most recent one. Known if every party above agrees and a party below parts at a value
/// delivered in both (a different one), with `latest: true`; no reference from there.
func throttleHandsItsSubscriptionOnLate(_ c: Case, openCombine: [String], ripple: [String]) -> String? {
    guard let at = c.ops.firstIndex(where: { if case .throttle = $0 { true } else { false } }) else { return nil }
    var mine = byParty(openCombine)
    let theirs = byParty(ripple)
    guard mine["script"] == theirs["script"] else { return nil }
    let k = c.ops[...at].filter { $0 == .probe }.count
    // A subscriber that cancels inside receive(subscription:): Ripple's throttle, handing its
    // subscription on first, then asks nothing of the upstream it cancelled (no request reaches a
    // cancelled subscription, the rule both libraries are held to); OpenCombine's asked before.
    let lastThrottle = c.ops.lastIndex(where: { if case .throttle = $0 { true } else { false } }) ?? at
    for n in stride(from: c.ops[...lastThrottle].filter { $0 == .probe }.count, to: 0, by: -1) {
        let p = "P\(n)"
        guard let probe = mine[Substring(p)], let other = theirs[Substring(p)],
            other.contains(where: { $0.hasSuffix(" \(p) cancel") }),
            !other.contains(where: { $0.contains(" \(p) request ") }),
            probe.contains(where: { $0.hasSuffix(" \(p) request unlimited") })
        else { continue }
        // What the upstream did inside that request goes with it.
        let completes = other.contains { $0.contains(" \(p) completion ") }
        mine[Substring(p)] = probe.filter {
            !$0.contains(" \(p) request ") && !$0.contains(" \(p) value ")
                && (completes || !$0.contains(" \(p) completion "))
        }
    }
    func isBelow(_ party: Substring) -> Bool {
        party == "S" || party == "A" || (party.hasPrefix("P") && (Int(party.dropFirst()) ?? 0) > k)
    }
    let parties = Set(mine.keys).union(theirs.keys).filter { $0 != "script" }
    let name = "throttle hands its subscription downstream after asking its upstream for unlimited"
    if mine == theirs { return name }
    /// Whether every party's events agree up to Ripple's event at `position` (the events each
    /// party had in Ripple's history before it).
    func agreeBefore(_ position: Int) -> Bool {
        let before = byParty(Array(ripple[..<position]))
        return before.allSatisfy { party, events in
            party == "script" || Array((mine[party] ?? []).prefix(events.count)) == events
        }
    }
    let latest = c.ops.contains { if case .throttle(_, true) = $0 { true } else { false } }
    let sendsWhenAsked: Bool
    switch c.source {
    case .currentValue, .just, .sequence, .record, .future, .deferredJust: sendsWhenAsked = true
    // `prepend` sends its elements when asked, whatever the source.
    default: sendsWhenAsked = c.ops[..<at].contains { if case .prepend(let vs) = $0 { !vs.isEmpty } else { false } }
    }
    func value(_ stamped: String) -> Bool {
        let parts = stamped.split(separator: " ")
        return parts.count >= 4 && parts[2] == "value" && !stamped.contains(" returned ")
    }
    // The party below the throttle that parts first in Ripple's history, and where.
    var first: (party: Substring, j: Int, position: Int)?
    // The party that parts first in Ripple's history (one above the throttle where an operator
    // below cancelled it on a value no probe saw).
    do {
        for party in parties where party != "T" {
            let a = mine[party] ?? [], b = theirs[party] ?? []
            guard let j = (0..<max(a.count, b.count)).first(where: { $0 >= a.count || $0 >= b.count || a[$0] != b[$0] })
            else { continue }
            // Where that event is in Ripple's history: the j-th of its party's (or its end, where
            // Ripple's party has no such event).
            let position = ripple.indices.filter({ ripple[$0].hasPrefix(party + " ") }).dropFirst(j).first
                ?? ripple.count
            if first == nil || position < first!.position { first = (party, j, position) }
        }
    }
    // Every party agrees up to the script's step under way there (what that value set off at its
    // instant — an operator below cancelling the upstream — goes with it).
    guard let (party, j, position) = first,
        agreeBefore((ripple[..<position].lastIndex(where: { $0.hasPrefix("do ") }) ?? -1) + 1)
    else { return nil }
    // A source that completes as soon as it is subscribed (or asked): OpenCombine's throttle has
    // its completion before its subscription goes downstream, and so schedules it before anything
    // the downstream schedules in its receive(subscription:) (a subscribe(on:) request).
    let completesAtOnce: Bool
    switch c.source {
    case .empty(true), .fail, .just, .sequence, .record, .future, .deferredJust: completesAtOnce = true
    default: completesAtOnce = false
    }
    // Narrowed: only where a completion is what parts them (one side completes where the other
    // does something else): a different value is not this deviation.
    func completion(_ stamped: String?) -> Bool {
        guard let stamped else { return false }
        let parts = stamped.split(separator: " ")
        return parts.count >= 3 && parts[2] == "completion"
    }
    // A value sent while subscribing finds demand only where the subscriber asks for some inside
    // receive(subscription:) (its plan's initial demand; a sink, `assign` or a subject relay asks
    // for `.unlimited` there).
    // Or an operator below it that asks for `.unlimited` as soon as it is subscribed (another
    // throttle, debounce, the reducing operators, ignoreOutput, flatMap, buffer(.keepFull)).
    let asksBelow = c.ops[(at + 1)...].contains {
        switch $0 {
        case .throttle, .debounce, .ignoreOutput, .reduce, .tryReduce, .count, .min, .max, .tryMin, .tryMax,
            .first, .firstWhere, .tryFirstWhere, .switchToLatestJust, .bufferByRequest, .dropFirst, .prepend,
            .collect, .contains, .containsWhere, .tryContainsWhere, .allSatisfy, .tryAllSatisfy, .last, .lastWhere,
            .tryLastWhere, .flatMapJust, .bufferKeepFull, .bufferCustomError:
            true
        default: false
        }
    }
    let asksAtOnce = asksBelow || (c.wrap == .none || c.wrap == .anySubscriber ? c.plan.initial != 0 : true)
    // Narrowed (one-sided): OpenCombine's party completes where Ripple's has something else — the
    // value or request the downstream's demand brought first — never the other way round, and
    // Ripple never completes a party OpenCombine delivers more values to (a throttle of Ripple's
    // that lost a value). Reset on a new subscription: the parting comes before any party below
    // the throttle is subscribed a second time (a `retry` or `catch` below it). And the condition
    // it names, checked: the downstream acts inside its receive(subscription:) — it asks for
    // demand there (Ripple's subscriber had demand left for a value it parts at), or an operator
    // below schedules its request there (`subscribe(on:)`) — which OpenCombine's early completion
    // overtakes.
    let latestHere: Bool
    if case .throttle(_, let l) = c.ops[at] { latestHere = l } else { latestHere = false }
    let mineAt = j < (mine[party] ?? []).count ? mine[party]![j] : nil
    let theirsAt = j < (theirs[party] ?? []).count ? theirs[party]![j] : nil
    let openCombineCompletesFirst = completion(mineAt) && theirsAt != nil && !completion(theirsAt)
    let subscribedOnce = !parties.contains { party in
        isBelow(party) && ripple[..<position].filter { $0.hasPrefix(party + " got subscription") }.count > 1
    }
    let schedulesItsRequest = c.ops[(at + 1)...].contains(.subscribeOnVirtual)
    // And where Ripple's party parts at a value: its subscriber had demand left for it, and it is
    // the value Combine's throttle delivers first there (Apple's expectation swapped in: the first
    // value the source sent while the throttle subscribed, the last with `latest: true`, followed
    // through `map`s), not any value.
    let withinDemand: Bool
    if let theirsAt, value(theirsAt) {
        let expected = valueSentWhileSubscribing(c, throttleAt: at, reaching: party, last: latestHere)
        withinDemand = (party != "S" || (remainingDemand(ripple[..<position]).map { $0 > 0 } ?? true))
            && (theirs[party] ?? []).prefix(j).filter(value).isEmpty
            && expected.map { theirsAt.split(separator: " ").last == Substring("\($0)") } == true
    } else {
        withinDemand = true
    }
    if completesAtOnce, openCombineCompletesFirst, subscribedOnce, asksAtOnce || schedulesItsRequest, withinDemand,
        !finishesAPartyShortOf(openCombine, ripple: ripple),
        !ripple[..<position].contains(where: { $0.hasPrefix("do send(") })
    {
        return name + "; throttle has a completion its upstream sends while it subscribes before it subscribes its downstream (what follows is no reference)"
    }
    // Narrowed: only where the party parts at the first value Ripple delivers to it (the one the
    // upstream sent while the throttle subscribed, which OpenCombine dropped).
    // (`assign(to: &$published)`'s object publishes its initial value first.)
    let mineAll = mine[party] ?? [], theirsAll = theirs[party] ?? []
    let bothValues = j < mineAll.count && j < theirsAll.count && value(mineAll[j]) && value(theirsAll[j])
    let firstValue = theirsAll.prefix(j).filter(value).count <= (c.wrap == .assignPublished && party == "A" ? 1 : 0)
    // Narrowed: below the throttle, the party parts where Ripple delivers it its first value (the
    // one OpenCombine dropped) at the first instant the clock ran — the value was sent while the
    // throttle subscribed; OpenCombine's party has no value there, or a later one. (Above it, where an operator below cancelled it on a value no probe
    // saw, as before: that value's first delivery.)
    let atFirstValue: Bool
    if isBelow(party) {
        let rippleValue = j < theirsAll.count && value(theirsAll[j])
        // (Delivered when the clock first runs: the scheduler runs nothing before.) Where the value
        // the source sends while subscribing can be followed to the party (through `map`s and
        // operators that pass values on as they are), it must be that value; otherwise no send of
        // the script's may come before it.
        let firstInstant = ripple[..<position].filter { $0.hasPrefix("at ") }.count <= 1
        let sentWhileSubscribing: Bool
        // (The first value it sent, or with `latest: true` the last one, which the throttle holds
        // when its first delivery runs.)
        if let expected = valueSentWhileSubscribing(c, throttleAt: at, reaching: party, last: latestHere) {
            sentWhileSubscribing = firstInstant && theirsAll[j].split(separator: " ").last == Substring("\(expected)")
        } else {
            sentWhileSubscribing = firstInstant && !ripple[..<position].contains(where: { $0.hasPrefix("do send(") })
        }
        atFirstValue = rippleValue && firstValue && sentWhileSubscribing
    } else {
        atFirstValue = !bothValues || firstValue
    }
    if sendsWhenAsked, asksAtOnce, atFirstValue {
        // Whatever that value set off below (a delivery, a completion an operator below made of it).
        return name + "; throttle drops a value its upstream sends while it subscribes (what follows is no reference)"
    }
    guard isBelow(party), let theirsToo = theirs[party], j < theirsToo.count, value(theirsToo[j]) else { return nil }
    // Narrowed: only where the pending delivery took the last demand — the subscriber's demand
    // left when the newer value arrived (the last send before that delivery) allows one delivery,
    // counted in Ripple's history.
    let newer = ripple[..<position].lastIndex(where: { $0.hasPrefix("do send(") }) ?? position
    if latest, let mineToo = mine[party], j < mineToo.count, value(mineToo[j]), remainingDemand(ripple[..<newer]) == 1 {
        return "throttle(latest: true) publishes an older value once its pending delivery took the last demand (what follows is no reference)"
    }
    return nil
}

/// The value a source that sends when asked sends first (a `prepend` above the throttle's first
/// element instead), as it reaches `party`: followed through `map`s and the operators that pass a
/// value on as it is; `nil` where an operator on the way could change or drop it.
/// With `last`, the last value such a source sends at once instead (what `throttle(latest: true)`
/// holds when its first delivery runs).
private func valueSentWhileSubscribing(
    _ c: Case, throttleAt: Int, reaching party: Substring, last: Bool = false
) -> Int? {
    var value: Int?
    switch c.source {
    case .currentValue(let v), .just(let v), .future(let v), .deferredJust(let v): value = v
    case .sequence(let vs), .record(let vs): value = last ? vs.last : vs.first
    default: value = nil
    }
    var end = c.ops.count
    if party.hasPrefix("P") {
        guard let n = Int(party.dropFirst()),
            let at = c.ops.indices.filter({ c.ops[$0] == .probe }).dropFirst(n - 1).first
        else { return nil }
        end = at
    }
    for (i, op) in c.ops[..<end].enumerated() {
        switch op {
        case .prepend(let vs) where i < throttleAt && !vs.isEmpty:
            // Its elements come before the source's: the first, or the last where the source sends none.
            if !last { value = vs[0] } else if value == nil { return nil }
        case .map(let a): value = value.map { $0 + a }
        case .probe, .eraseToAnyPublisher, .mapKeyPath, .handleEvents, .receiveOnImmediate, .subscribeOnImmediate,
            .receiveOnVirtual, .subscribeOnVirtual, .delay, .debounce, .replaceError, .mapError:
            continue
        case .throttle where i == throttleAt: continue
        default: return nil
        }
    }
    return value
}

/// The subscriber's demand not yet used in `events` (`nil`: unlimited).
/// The demand an event of the source probe's log asks for ("unlimited", "max(n)", "none"): a
/// request made of it, a demand returned for a value, or the script's request; nil for others.
func demandAsked(by event: String) -> Substring? {
    for prefix in ["S requests ", "S returns "] where event.hasPrefix(prefix) {
        return event.dropFirst(prefix.count).split(separator: " ").first
    }
    if event.hasPrefix("do request(") {
        return event.dropFirst("do request(".count).dropLast().split(separator: " ").first
    }
    return nil
}

func remainingDemand(_ events: ArraySlice<String>) -> Int? {
    var demand = 0
    // A request the script makes before the subscriber has its subscription goes nowhere.
    let subscribed = events.firstIndex { $0.hasPrefix("S got subscription") } ?? events.endIndex
    for (i, event) in zip(events.indices, events) {
        if i < subscribed, event.hasPrefix("do request(") { continue }
        if event.hasPrefix("S value") { demand -= 1; continue }
        guard let asked = demandAsked(by: event) else { continue }
        if asked == "unlimited" { return nil }
        if asked.hasPrefix("max("), let n = Int(asked.dropFirst(4).dropLast()) { demand += n }
    }
    return demand
}

/// The known deviations that, undone together, make OpenCombine's history equal Ripple's.
func knownOpenCombineDeviation(_ c: Case, openCombine: [String], ripple: [String]) -> String? {
    // Narrowed: OpenCombine's history is no reference only from the completion it mishandles on;
    // before the first completion (in either history) the two must agree.
    // Narrowed (one-sided): what OpenCombine's zip and buffer do with such a completion is lose it
    // or what follows it, or send it early; never deliver a party values Ripple's completion cut
    // short. Where Ripple finishes a party OpenCombine delivers more values to, Ripple finished
    // early (a buffer that lost its last element) and the rule does not apply.
    if let zip = zipCompletesBeforeSubscription(c, openCombine: openCombine), openCombine != ripple,
        !finishesAPartyShortOf(openCombine, ripple: ripple),
        agreeUntilACompletion(c, openCombine, ripple) || agreeUntilACompletionAboveZipAndBuffer(c),
        !finishesABufferHoldingValues(c)
    {
        return zip
    }
    if let zip = zipAsksEveryUpstreamForReturnedDemand(c, openCombine: openCombine, ripple: ripple) {
        return zip
    }
    if let zip = zipFinishesOnceAFinishedUpstreamIsDrained(c, openCombine: openCombine, ripple: ripple) {
        return zip
    }
    if let throttle = throttleHandsItsSubscriptionOnLate(c, openCombine: openCombine, ripple: ripple) {
        return throttle
    }
    // Each deviation's rewrite applies only where that deviation is at work, so try the
    // combinations of those whose rewrite changes something here, fewest first.
    let relevant = knownDeviations.filter { deviation in
        deviation.undo(c, openCombine) != openCombine || (deviation.bothSides && deviation.undo(c, ripple) != ripple)
    }
    let n = relevant.count
    let subsets = (1..<(1 << n)).sorted { $0.nonzeroBitCount < $1.nonzeroBitCount }
    /// Both histories with the rewrites in `subset` applied, and the names of those that changed
    /// something.
    func undoing(_ subset: Int) -> (openCombine: [String], ripple: [String], used: [String]) {
        var events = openCombine
        var theirs = ripple
        var used: [String] = []
        for (i, deviation) in relevant.enumerated() where subset & (1 << i) != 0 {
            let undone = deviation.undo(c, events)
            let theirsUndone = deviation.bothSides ? deviation.undo(c, theirs) : theirs
            if undone != events || theirsUndone != theirs { used.append(deviation.name) }
            events = undone
            theirs = theirsUndone
        }
        return (events, theirs, used)
    }
    for subset in subsets {
        let (events, theirs, used) = undoing(subset)
        if events == theirs && !used.isEmpty { return used.joined(separator: "; ") }
    }
    if let deliberate = deliberateRippleDifference(c, openCombine: openCombine, ripple: ripple) {
        return deliberate
    }
    // zip's returned demand seen through OpenCombine's other deviations (its long
    // prefix(untilOutputFrom:) name at the first event): judged on the rewritten histories.
    for subset in subsets {
        let (events, theirs, used) = undoing(subset)
        if !used.isEmpty, let zip = zipAsksEveryUpstreamForReturnedDemand(c, openCombine: events, ripple: theirs) {
            return (used + [zip]).joined(separator: "; ")
        }
        if !used.isEmpty,
            let throttle = throttleHandsItsSubscriptionOnLate(c, openCombine: events, ripple: theirs)
        {
            return (used + [throttle]).joined(separator: "; ")
        }
    }
    // A deliberate difference of Ripple's seen through one of OpenCombine's own deviations (an
    // early cancel, and OpenCombine's first(where:) describing itself as "TryFirst"): the
    // deliberate difference is judged on the histories with OpenCombine's deviations undone.
    for subset in subsets {
        let (events, theirs, used) = undoing(subset)
        if !used.isEmpty, let deliberate = deliberateRippleDifference(c, openCombine: events, ripple: theirs) {
            return (used + [deliberate]).joined(separator: "; ")
        }
    }
    return nil
}
