#if canImport(Glibc)
import Glibc
#endif
import RippleCore

/// The scripts over a subject's subscribers (`SubjectCore`, `SubjectConduit`, `TurnLock`).
func conduitScripts() -> [Script] { registryScripts() + [
    Script(name: "a subscribe racing sends and a completion") { explorer in
        let subject = PassthroughSubject<Int, Never>()
        let log = Log(subscribers: 1)
        log.demandGranted[0] = Int.max
        let senders = [[1, 2]]
        return (
            [
                { subject.subscribe(SettingUp(log: log, explorer: explorer, index: 0)) },
                {
                    for value in senders[0] { log.send(subject, value) }
                    log.complete(subject)
                },
            ],
            { log.check(senders: senders) }
        )
    },
    Script(name: "finite demand: a subscriber asks for .max(2), returns .max(1) from its first value only; four sends") { explorer in
        // One thread: each send starts after the previous delivery returned, so exactly
        // min(sent, granted + returned) = min(4, 2 + 1) = 3 values are delivered.
        let subject = PassthroughSubject<Int, Never>()
        let log = Log(subscribers: 1)
        let senders = [[1, 2, 3, 4]]
        return (
            [
                {
                    subject.subscribe(SettingUp(log: log, explorer: explorer, index: 0, demand: .max(2), returns: [.max(1)]))
                    for value in senders[0] { log.send(subject, value) }
                    log.complete(subject)
                },
            ],
            { log.check(senders: senders, finite: true) ?? log.checkDemandCount(sent: 4) }
        )
    },
    Script(name: "a cancel racing two sends (the only reference to the conduit is the subject's)") { explorer in
        let subject = PassthroughSubject<Int, Never>()
        let log = Log(subscribers: 1)
        let subscriber = SettingUp(log: log, explorer: explorer, index: 0, keepsSubscription: false)
        subject.subscribe(subscriber)
        return (
            [
                { log.send(subject, 1); log.send(subject, 2) },
                { subscriber.cancel() },
            ],
            { log.checkCancel(values: [1, 2], ordered: true) }
        )
    },
    Script(name: "a cancel racing two senders (a waiter for the turn gives up)") { explorer in
        let subject = PassthroughSubject<Int, Never>()
        let log = Log(subscribers: 1)
        let subscriber = SettingUp(log: log, explorer: explorer, index: 0, keepsSubscription: false)
        subject.subscribe(subscriber)
        return (
            [
                { log.send(subject, 1) },
                { log.send(subject, 2) },
                { subscriber.cancel() },
            ],
            { log.checkCancel(values: [1, 2], ordered: false) }
        )
    },
    Script(name: "a cancel racing a send to two subscribers (the sender offers from its snapshot)") { explorer in
        let subject = PassthroughSubject<Int, Never>()
        let log = Log(subscribers: 2)
        let subscriber = SettingUp(log: log, explorer: explorer, index: 0, keepsSubscription: false)
        subject.subscribe(subscriber)
        attachSink(subject, 1, log, explorer)
        return (
            [
                { log.send(subject, 1); log.send(subject, 2) },
                { subscriber.cancel() },
            ],
            { log.checkCancel(values: [1, 2], ordered: true) }
        )
    },
    Script(name: "CurrentValueSubject replay: a .max(1) subscriber subscribing while another thread sends") { explorer in
        let subject = CurrentValueSubject<Int, Never>(0)
        let log = Log(subscribers: 1)
        return (
            [
                { subject.subscribe(SettingUp(log: log, explorer: explorer, index: 0, demand: .max(1), returned: .max(1))) },
                { log.send(subject, 1); log.send(subject, 2) },
            ],
            {
                // The first request gets the current value (at the request or later), then only
                // values sent after it, each once, in order; never more than the demand allows.
                if let first = log.violations.first { return first }
                let got = log.received[0]
                guard let first = got.first else { return "the first request got no value (the current one is owed)" }
                let storedBefore = [1, 2].filter { log.sendEnd[$0]! < log.requestStart[0] }.max() ?? 0
                if first < storedBefore { return "the first value was \(first), older than the current value \(storedBefore) at the request" }
                for (a, b) in zip(got, got.dropFirst()) where b <= a { return "values repeated or out of order: \(got)" }
                return nil
            }
        )
    },
    Script(name: "a nested send: a subscriber sends into its subject from receive(_:) while another thread sends") { explorer in
        let subject = PassthroughSubject<Int, Never>()
        let log = Log(subscribers: 1)
        let subscriber = NestedSender(log: log, explorer: explorer, subject: subject, trigger: 1, nested: 100)
        subject.subscribe(subscriber)
        return (
            [
                { log.send(subject, 1) },
                { log.send(subject, 2) },
            ],
            {
                if let first = log.violations.first { return first }
                let got = log.received[0]
                if got.sorted() != [1, 2, 100] { return "got \(got), not 1, 2 and 100 each once" }
                if subscriber.outerOfNested != [1] { return "the nested value was not delivered inside the call that sent it: \(subscriber.outerOfNested ?? [])" }
                return nil
            }
        )
    },
] + insideCallScripts() + demandScripts() + currentValueScripts() + threeThreadScripts() + [
    // The longest (most of the run): `runsLast`, after every other file's scripts too.
    Script(name: "one sink, three senders (two waiters queue up)", runsLast: true) { explorer in
        let subject = PassthroughSubject<Int, Never>()
        let log = Log(subscribers: 1)
        attachSink(subject, 0, log, explorer)
        let senders = [[1], [2], [3]]
        return (
            [
                { log.send(subject, 1); log.complete(subject) },
                { log.send(subject, 2) },
                { log.send(subject, 3) },
            ],
            { log.check(senders: senders) }
        )
    },
] }

// MARK: The registry: two sinks on one subject (split so that each script is exhaustive)

/// Two sinks on one `PassthroughSubject`: every send takes the snapshot path (the registry is
/// copied under the lock, each conduit offered after unlocking), and two senders cross from one
/// sink's turn to the next's — the shape of the lost hand-off fixed before.
func registryScripts() -> [Script] { [
    Script(name: "two sinks, two senders (the snapshot path; a hand-off across sinks)") { explorer in
        let subject = PassthroughSubject<Int, Never>()
        let log = Log(subscribers: 2)
        attachSink(subject, 0, log, explorer)
        attachSink(subject, 1, log, explorer)
        let senders = [[1], [10]]
        return (
            [{ log.send(subject, 1) }, { log.send(subject, 10) }],
            { log.checkValues(senders: senders, completes: false) }
        )
    },
    Script(name: "two sinks, a completion racing a send") { explorer in
        let subject = PassthroughSubject<Int, Never>()
        let log = Log(subscribers: 2)
        attachSink(subject, 0, log, explorer)
        attachSink(subject, 1, log, explorer)
        let senders = [[10]]
        return (
            [{ log.complete(subject) }, { log.send(subject, 10) }],
            { log.check(senders: senders) }
        )
    },
] }

// MARK: Inside the subscriber's own call: a cancel, a completion, a request

func insideCallScripts() -> [Script] { [
    Script(name: "a cancel from inside the subscriber's own call while another thread sends") { explorer in
        // The call under way is the cancelling one: no call begins after cancel() returns (the
        // other sender, waiting or late, gives up or is dropped); the subscriber is let go once,
        // after its call returned, with no lock held.
        let subject = PassthroughSubject<Int, Never>()
        let log = Log(subscribers: 1)
        let handle = Handle()
        subject.subscribe(Probe(log, explorer, 0, handle, demand: .unlimited, inside: .cancel))
        return (
            [{ log.send(subject, 1) }, { log.send(subject, 2) }],
            {
                log.checkCancel(values: [1, 2], ordered: false)
                    ?? (log.received[0].count == 1 ? nil : "got \(log.received[0]); only the cancelling call's value may arrive")
                    ?? handle.checkReleased(1)
            }
        )
    },
    Script(name: "a completion from inside the subscriber's own call while another thread sends") { explorer in
        // The completion is delivered nested, inside the call that sent it; nothing after it; the
        // subscriber is let go once, after the outer call returned.
        let subject = PassthroughSubject<Int, Never>()
        let log = Log(subscribers: 1)
        let handle = Handle()
        subject.subscribe(Probe(log, explorer, 0, handle, demand: .unlimited, inside: .complete({ log.completeAny(subject) })))
        let senders = [[1], [2]]
        return (
            [{ log.send(subject, 1) }, { log.send(subject, 2) }],
            { log.check(senders: senders) ?? handle.checkReleased(1) }
        )
    },
    Script(name: "a request from inside every call: .max(2), then .max(1) asked in each call; two senders, then a completion") { explorer in
        // Each sender has at most one value charged and not yet answered by its call's request, so
        // every offer finds demand (2 − 1 ≥ 1): every value is delivered, in each sender's order.
        let subject = PassthroughSubject<Int, Never>()
        let log = Log(subscribers: 1)
        let handle = Handle()
        subject.subscribe(Probe(log, explorer, 0, handle, demand: .max(2), inside: .request(.max(1)), everyCall: true))
        let senders = [[1, 2], [3]]
        return (
            [
                { log.send(subject, 1); log.send(subject, 2); log.complete(subject) },
                { log.send(subject, 3) },
            ],
            { log.check(senders: senders) ?? handle.checkReleased(1) }
        )
    },
] }

// MARK: Demand from another thread, and returned with two senders

func demandScripts() -> [Script] { [
    Script(name: "a request from another thread racing sends: .max(1), one thread asks .max(1) more while another sends 1, 2, completes") { explorer in
        let subject = PassthroughSubject<Int, Never>()
        let log = Log(subscribers: 1)
        let handle = Handle()
        subject.subscribe(Probe(log, explorer, 0, handle, demand: .max(1)))
        return (
            [
                { log.send(subject, 1); log.send(subject, 2); log.complete(subject) },
                { handle.request(log, 0, .max(1)) },
            ],
            {
                // 1 always finds the first unit of demand; 2 finds the second if the request
                // returned before its send began (and may if they overlap); never more than granted
                // (the demand count, at every call).
                if let first = log.violations.first { return first }
                let got = log.received[0]
                if got.first != 1 { return "got \(got): 1 had demand" }
                if handle.requestEnd < log.sendStart[2]!, got != [1, 2] { return "got \(got): 2 was sent after the request for it returned" }
                if got != [1] && got != [1, 2] { return "got \(got)" }
                if log.completions[0] != 1 { return "completed \(log.completions[0]) times" }
                if log.valuesAfterCompletion > 0 { return "a value after the completion" }
                return handle.checkReleased(1)
            }
        )
    },
    Script(name: "a subscriber returning demand, two senders: .max(2), returns .max(1) from every call; 1, 2 and a completion, and 3") { explorer in
        // Each sender has at most one value charged whose call has not yet returned its demand,
        // so every offer finds demand: every value is delivered, in each sender's order.
        let subject = PassthroughSubject<Int, Never>()
        let log = Log(subscribers: 1)
        let handle = Handle()
        subject.subscribe(Probe(log, explorer, 0, handle, demand: .max(2), returns: .max(1)))
        let senders = [[1, 2], [3]]
        return (
            [
                { log.send(subject, 1); log.send(subject, 2); log.complete(subject) },
                { log.send(subject, 3) },
            ],
            { log.check(senders: senders) ?? handle.checkReleased(1) }
        )
    },
] }

// MARK: CurrentValueSubject: the replay racing cancels and completions

func currentValueScripts() -> [Script] { [
    Script(name: "CurrentValueSubject(0): a request (.unlimited: the replay) then a cancel, racing sends of 1, 2") { explorer in
        let subject = CurrentValueSubject<Int, Never>(0)
        let log = Log(subscribers: 1)
        let handle = Handle()
        subject.subscribe(Probe(log, explorer, 0, handle, demand: nil))
        return (
            [
                { handle.request(log, 0, .unlimited); handle.cancel(log) },
                { log.send(subject, 1); log.send(subject, 2) },
            ],
            {
                if let first = log.violations.first { return first }
                let got = log.received[0]
                for (a, b) in zip(got, got.dropFirst()) where b <= a { return "values repeated or out of order: \(got)" }
                // The replay: the request returned before the cancel began, so it delivered a value
                // at least as new as the one stored before it began.
                let storedBefore = [1, 2].filter { log.sendEnd[$0]! < handle.requestStart }.max() ?? 0
                guard let first = got.first else { return "the request got no value (the current one is owed)" }
                if first < storedBefore { return "the first value was \(first), older than the current value \(storedBefore) at the request" }
                // Then every value sent after the request returned and before the cancel began.
                for value in [1, 2] where log.sendStart[value]! > handle.requestEnd && log.sendEnd[value]! < log.cancelStart {
                    if !got.contains(value) { return "never got \(value) (sent with demand, before the cancel)" }
                }
                for value in [1, 2] where log.sendStart[value]! > log.cancelEnd && got.contains(value) {
                    return "got \(value), sent after cancel() returned"
                }
                let late = log.callStarts[0].filter { $0 > log.cancelEnd }.count
                if late > 1 { return "\(late) calls began after cancel() returned (at most one may)" }
                if log.completions[0] != 0 { return "a completion after a cancel" }
                return handle.checkReleased(1)
            }
        )
    },
    Script(name: "CurrentValueSubject(0): a request (.unlimited: the replay) racing a send of 1 and a completion") { explorer in
        let subject = CurrentValueSubject<Int, Never>(0)
        let log = Log(subscribers: 1)
        let handle = Handle()
        subject.subscribe(Probe(log, explorer, 0, handle, demand: nil))
        return (
            [
                { handle.request(log, 0, .unlimited) },
                { log.send(subject, 1); log.completeAny(subject) },
            ],
            {
                if let first = log.violations.first { return first }
                let got = log.received[0]
                for (a, b) in zip(got, got.dropFirst()) where b <= a { return "values repeated or out of order: \(got)" }
                if log.valuesAfterCompletion > 0 { return "a value after the completion" }
                if log.completions[0] != 1 { return "completed \(log.completions[0]) times" }
                // A request that returned before the completion began got the current value, and
                // then 1 if it was sent before the completion began (as the current value or sent).
                if handle.requestEnd < log.completionStart {
                    let storedBefore = log.sendEnd[1]! < handle.requestStart ? 1 : 0
                    guard let first = got.first else { return "the request got no value (the current one is owed)" }
                    if first < storedBefore { return "the first value was \(first), older than the current value \(storedBefore) at the request" }
                    if got.last != 1 { return "got \(got): 1 was sent before the completion, with demand" }
                }
                return handle.checkReleased(1)
            }
        )
    },
] }

// MARK: Three threads: two senders, and a cancel, a completion or a request

func threeThreadScripts() -> [Script] { [
    Script(name: "three threads: two senders and a cancel") { explorer in
        let subject = PassthroughSubject<Int, Never>()
        let log = Log(subscribers: 1)
        let handle = Handle()
        subject.subscribe(Probe(log, explorer, 0, handle, demand: .unlimited))
        return (
            [{ log.send(subject, 1) }, { log.send(subject, 2) }, { handle.cancel(log) }],
            { log.checkCancel(values: [1, 2], ordered: false) ?? handle.checkReleased(1) }
        )
    },
    Script(name: "three threads: two senders and a completion") { explorer in
        let subject = PassthroughSubject<Int, Never>()
        let log = Log(subscribers: 1)
        let handle = Handle()
        subject.subscribe(Probe(log, explorer, 0, handle, demand: .unlimited))
        let senders = [[1], [2]]
        return (
            [{ log.send(subject, 1) }, { log.send(subject, 2) }, { log.complete(subject) }],
            { log.check(senders: senders) ?? handle.checkReleased(1) }
        )
    },
    Script(name: "three threads: two senders and a request (.max(1), then .max(1) more)") { explorer in
        let subject = PassthroughSubject<Int, Never>()
        let log = Log(subscribers: 1)
        let handle = Handle()
        subject.subscribe(Probe(log, explorer, 0, handle, demand: .max(1)))
        return (
            [{ log.send(subject, 1) }, { log.send(subject, 2) }, { handle.request(log, 0, .max(1)) }],
            {
                // The first offer finds the first unit of demand; both are delivered if the request
                // returned before either send began; never more than granted (at every call).
                if let first = log.violations.first { return first }
                let got = log.received[0]
                if got.isEmpty { return "nothing delivered: the first offer had demand" }
                if Set(got).count != got.count { return "a value twice: \(got)" }
                if handle.requestEnd < min(log.sendStart[1]!, log.sendStart[2]!), got.count != 2 {
                    return "got \(got): both were sent after the request returned"
                }
                return handle.checkReleased(0)
            }
        )
    },
] }

// MARK: Helpers

/// Where a ``Probe``'s subscription is kept (outside the probe, so the probe's only owner is its
/// conduit, whose release is then the probe's `deinit`), and what happened to it.
final class Handle: @unchecked Sendable {
    var subscription: (any Subscription)?
    /// The probe's `deinit`s (0 or 1).
    var releases = 0
    var requestStart = Int.max
    var requestEnd = Int.max

    func request(_ log: Log, _ index: Int, _ demand: Subscribers.Demand) {
        log.requested(index, demand)  // counted first: the bound checked at each call may include it
        requestStart = log.tick()
        subscription!.request(demand)
        requestEnd = log.tick()
    }

    func cancel(_ log: Log) {
        log.cancelStart = log.tick()
        subscription!.cancel()
        log.cancelEnd = log.tick()
    }

    /// The subscriber was let go `expected` times by the end (once if cancelled or completed).
    func checkReleased(_ expected: Int) -> String? {
        releases == expected ? nil : "the subscriber was released \(releases) times, \(expected) expected"
    }
}

/// A subscriber owned only by its conduit (its subscription is kept in a ``Handle``): it asks for
/// `demand` in `receive(subscription:)` (none if `nil`), returns `returns` from every value call,
/// makes a scheduling point inside every call, and from inside its first call (or every call)
/// cancels, completes the subject or asks for more. Its `deinit` reports a release during a call
/// to it or with a lock held.
final class Probe: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never
    enum Inside {
        case nothing, cancel, request(Subscribers.Demand)
        case complete(() -> Void)
    }
    let log: Log
    let explorer: Explorer
    let index: Int
    weak var handle: Handle?
    let demand: Subscribers.Demand?
    let returns: Subscribers.Demand
    let inside: Inside
    let everyCall: Bool
    let combineIdentifier = CombineIdentifier()

    init(
        _ log: Log, _ explorer: Explorer, _ index: Int, _ handle: Handle, demand: Subscribers.Demand?,
        returns: Subscribers.Demand = .none, inside: Inside = .nothing, everyCall: Bool = false
    ) {
        self.log = log
        self.explorer = explorer
        self.index = index
        self.handle = handle
        self.demand = demand
        self.returns = returns
        self.inside = inside
        self.everyCall = everyCall
    }

    deinit {
        handle?.releases += 1
        if log.depth[index] > 0 { log.violations.append("subscriber \(index) was released during a call to it") }
        if explorer.holdsAnyLock() { log.violations.append("subscriber \(index) was released with a lock held") }
        // Released on the thread that last called it, before that thread took any lock again: the
        // last reference was the one its caller held for the call (a debug build copies the
        // conduit's closure for it), so the conduit let the subscriber go while the call was under
        // way — where an optimized build, which borrows the closure, would free it mid-call. The
        // rule: only the thread that gives the turn back (after locking) lets it go.
        if let (thread, taken) = lastCallEnd, pthread_equal(thread, pthread_self()) != 0, explorer.locksTaken() == taken {
            log.violations.append("subscriber \(index) was let go during a call to it (its caller's reference was the last)")
        }
    }

    /// The thread whose call to this probe returned last, and how many locks it had taken then.
    var lastCallEnd: (pthread_t, Int)?

    func callEnded() {
        if let taken = explorer.locksTaken() { lastCallEnd = (pthread_self(), taken) }
    }

    func receive(subscription: any Subscription) {
        log.enter(index, "receive(subscription:)")
        handle?.subscription = subscription
        if let demand {
            log.requested(index, demand)
            subscription.request(demand)
        }
        log.exit(index)
        callEnded()
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        log.enter(index, "receive(_:)")
        log.delivering(index)
        explorer.point()
        log.value(index, input)
        if everyCall || log.received[index].count == 1 {
            switch inside {
            case .nothing: break
            case .cancel: handle?.cancel(log)
            case .request(let more): handle?.request(log, index, more)
            case .complete(let complete): complete()
            }
        }
        log.exit(index)
        log.callEnds[index].append(log.tick())
        log.returned(index, returns)
        callEnded()
        return returns
    }

    func receive(completion: Subscribers.Completion<Never>) {
        log.enter(index, "receive(completion:)")
        log.completions[index] += 1
        log.exit(index)
        callEnded()
    }
}

extension Log {
    /// `send(completion:)` on any subject, timed as ``complete(_:)``.
    func completeAny<S: Subject<Int, Never>>(_ subject: S) {
        completionStart = tick()
        subject.send(completion: .finished)
        completionEnd = tick()
    }

    /// ``check(senders:finite:)``, or, for a script with no completion, the same for values: every
    /// value sent (every subscriber had unlimited demand before the threads started) delivered
    /// exactly once, in each sender's order, and no completion.
    func checkValues(senders: [[Int]], completes: Bool) -> String? {
        if completes { return check(senders: senders) }
        if let first = violations.first { return first }
        for subscriber in received.indices {
            let got = received[subscriber]
            if completions[subscriber] != 0 { return "subscriber \(subscriber) completed, and nothing completes" }
            for value in senders.joined() where got.filter({ $0 == value }).count != 1 {
                return "subscriber \(subscriber) got \(value) \(got.filter { $0 == value }.count) times: \(got)"
            }
            for sender in senders {
                let seen = got.filter(sender.contains)
                if seen != seen.sorted() { return "subscriber \(subscriber) saw a sender's values out of order: \(seen)" }
            }
        }
        return nil
    }
}
