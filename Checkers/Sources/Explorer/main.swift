#if canImport(Glibc)
import Glibc
#endif
import RippleCore

/// What one execution of a script recorded, in the one order the explorer ran it (one thread at a
/// time, so a plain counter orders every event). Written only by the running thread.
final class Log: @unchecked Sendable {
    var clock = 0
    var violations: [String] = []
    /// Per subscriber: the values it received, in order; whether a call is in progress; completions.
    var received: [[Int]]
    var completions: [Int]
    var valuesAfterCompletion = 0
    var sendStart: [Int: Int] = [:]
    var sendEnd: [Int: Int] = [:]
    var completionStart = Int.max
    var completionEnd = Int.max
    /// Per subscriber: when its demand was granted (0: before the threads started).
    var demandGranted: [Int]
    /// Per subscriber: when its `receive(subscription:)` began its request.
    var requestStart: [Int]
    var cancellables: [AnyCancellable] = []
    var subscriptions: [any Subscription] = []
    /// Per subscriber, the demand count: granted (requests), returned (by its `receive(_:)`), and
    /// values delivered; `nil` granted means unlimited. Checked at every delivery.
    var granted: [Int?]
    var returnedSum: [Int]
    /// Per subscriber: the clock at the start of each value call.
    var callStarts: [[Int]]
    var callEnds: [[Int]]
    var cancelStart = Int.max
    var cancelEnd = Int.max

    init(subscribers: Int) {
        received = Array(repeating: [], count: subscribers)
        insideThread = Array(repeating: nil, count: subscribers)
        depth = Array(repeating: 0, count: subscribers)
        completions = Array(repeating: 0, count: subscribers)
        demandGranted = Array(repeating: 0, count: subscribers)
        requestStart = Array(repeating: 0, count: subscribers)
        granted = Array(repeating: 0, count: subscribers)
        returnedSum = Array(repeating: 0, count: subscribers)
        callStarts = Array(repeating: [], count: subscribers)
        callEnds = Array(repeating: [], count: subscribers)
    }

    func requested(_ subscriber: Int, _ demand: Subscribers.Demand) {
        if let max = demand.max, let before = granted[subscriber] { granted[subscriber] = before + max } else {
            granted[subscriber] = nil
        }
    }

    /// A value call starts: the delivered count may not pass granted + returned.
    func delivering(_ subscriber: Int) {
        callStarts[subscriber].append(tick())
        if let granted = granted[subscriber], received[subscriber].count + 1 > granted + returnedSum[subscriber] {
            violations.append(
                "subscriber \(subscriber) got value \(received[subscriber].count + 1) with demand for only \(granted + returnedSum[subscriber]) (granted \(granted) + returned \(returnedSum[subscriber]))")
        }
    }

    func returned(_ subscriber: Int, _ demand: Subscribers.Demand) {
        if let max = demand.max { returnedSum[subscriber] += max }
    }

    /// The end of a finite-demand script whose sends each start after the previous one returned
    /// (one thread): delivered == min(sent, granted + returned).
    func checkDemandCount(sent: Int) -> String? {
        for subscriber in received.indices {
            guard let granted = granted[subscriber] else { continue }
            let expected = min(sent, granted + returnedSum[subscriber])
            if received[subscriber].count != expected {
                return "subscriber \(subscriber) got \(received[subscriber].count) values; sent \(sent), granted \(granted) + returned \(returnedSum[subscriber]): \(expected) expected"
            }
        }
        return nil
    }

    func tick() -> Int {
        clock += 1
        return clock
    }

    /// Per subscriber: the thread inside it and how deep (a call nested on that thread is allowed).
    var insideThread: [pthread_t?]
    var depth: [Int]

    func enter(_ subscriber: Int, _ what: String) {
        if depth[subscriber] > 0, let owner = insideThread[subscriber], pthread_equal(owner, pthread_self()) == 0 {
            violations.append("two threads inside subscriber \(subscriber) at once (\(what))")
        }
        depth[subscriber] += 1
        insideThread[subscriber] = pthread_self()
    }

    func exit(_ subscriber: Int) { depth[subscriber] -= 1 }

    func value(_ subscriber: Int, _ value: Int) {
        if completions[subscriber] > 0 { valuesAfterCompletion += 1 }
        received[subscriber].append(value)
    }

    func send<S: Subject<Int, Never>>(_ subject: S, _ value: Int) {
        sendStart[value] = tick()
        subject.send(value)
        sendEnd[value] = tick()
    }

    func complete(_ subject: PassthroughSubject<Int, Never>) {
        completionStart = tick()
        subject.send(completion: .finished)
        completionEnd = tick()
    }

    /// The Threading article's cancel guarantee: after cancel() returns nothing sent afterwards is
    /// delivered; at most one call (already decided) begins after it returns, none if a call was
    /// under way when it began; a value whose send
    /// returned before the cancel began is delivered; no completion.
    func checkCancel(values: [Int], ordered: Bool) -> String? {
        if let first = violations.first { return first }
        let got = received[0]
        for value in values {
            let count = got.filter { $0 == value }.count
            if count > 1 { return "got \(value) \(count) times" }
            if sendStart[value]! > cancelEnd, count > 0 { return "got \(value), sent after cancel() returned" }
            if sendEnd[value]! < cancelStart, count == 0 { return "never got \(value) (sent before the cancel)" }
        }
        if ordered, got != got.sorted() { return "values out of order: \(got)" }
        let late = callStarts[0].filter { $0 > cancelEnd }.count
        if late > 1 { return "\(late) calls began after cancel() returned (at most one may)" }
        // A call under way when cancel() began was the turn holder's decided call: after it, none
        // (threads waiting for the turn give up).
        let underWay = zip(callStarts[0], callEnds[0]).contains { $0.0 < cancelStart && $0.1 > cancelStart }
        if underWay, late > 0 { return "a call began after cancel() returned, though the turn holder's call was under way when it began (a waiter did not give up)" }
        if completions[0] != 0 { return "a completion after a cancel" }
        return nil
    }

    /// Progress and safety for every subscriber: each value sent while it had demand and before the
    /// completion started delivered exactly once, none twice, none after the completion, none
    /// sent after the completion returned; each sender's values in its order; completion once.
    func check(senders: [[Int]], finite: Bool = false) -> String? {
        if let first = violations.first { return first }
        for subscriber in received.indices {
            let got = received[subscriber]
            if completions[subscriber] != 1 {
                return "subscriber \(subscriber) completed \(completions[subscriber]) times"
            }
            if valuesAfterCompletion > 0 { return "a value was delivered after the completion" }
            for (value, start) in sendStart {
                let count = got.filter { $0 == value }.count
                if count > 1 { return "subscriber \(subscriber) got \(value) \(count) times" }
                let must = !finite && start > demandGranted[subscriber] && sendEnd[value]! < completionStart
                if must, count == 0 { return "subscriber \(subscriber) never got \(value) (sent with demand, before the completion)" }
                if start > completionEnd, count > 0 { return "subscriber \(subscriber) got \(value), sent after the completion" }
            }
            for sender in senders {
                let seen = got.filter(sender.contains)
                if seen != seen.sorted() { return "subscriber \(subscriber) saw a sender's values out of order: \(seen)" }
            }
        }
        return nil
    }
}

/// A subscriber that asks for its demand (unlimited unless told) in `receive(subscription:)` and then goes on with
/// its setup (a scheduling point): nothing may be delivered to it meanwhile.
final class SettingUp: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never
    let log: Log
    let explorer: Explorer
    let index: Int
    /// Asked for in `receive(subscription:)`; `returns[k]` is returned by the k-th `receive(_:)`,
    /// `returned` by every later one.
    let demand: Subscribers.Demand
    let returned: Subscribers.Demand
    let returns: [Subscribers.Demand]
    /// Whether the log keeps the subscription (a strong reference); otherwise only the subject's
    /// registry (and its pin) keeps the conduit alive, and `cancel()` reaches it unretained.
    let keepsSubscription: Bool
    weak var conduit: AnyObject?
    var unretained: Unmanaged<AnyObject>?
    let combineIdentifier = CombineIdentifier()
    init(
        log: Log, explorer: Explorer, index: Int, demand: Subscribers.Demand = .unlimited,
        returned: Subscribers.Demand = .none, returns: [Subscribers.Demand] = [], keepsSubscription: Bool = true
    ) {
        self.log = log
        self.explorer = explorer
        self.index = index
        self.demand = demand
        self.returned = returned
        self.returns = returns
        self.keepsSubscription = keepsSubscription
    }
    func receive(subscription: any Subscription) {
        log.enter(index, "receive(subscription:)")
        if keepsSubscription { log.subscriptions.append(subscription) }
        conduit = subscription as AnyObject
        unretained = Unmanaged.passUnretained(subscription as AnyObject)
        log.requested(index, demand)
        log.requestStart[index] = log.tick()
        subscription.request(demand)
        log.demandGranted[index] = log.tick()
        explorer.point()
        log.exit(index)
    }
    /// Cancels through the subscription it was given, holding no reference of its own beyond the call.
    func cancel() {
        log.cancelStart = log.tick()
        (unretained!.takeUnretainedValue() as! any Subscription).cancel()
        log.cancelEnd = log.tick()
    }
    func receive(_ input: Int) -> Subscribers.Demand {
        log.enter(index, "receive(_:)")
        log.delivering(index)
        explorer.point()
        if conduit == nil { log.violations.append("the subscription was freed during a call to its subscriber") }
        log.value(index, input)
        log.exit(index)
        log.callEnds[index].append(log.tick())
        let count = log.received[index].count
        let more = count <= returns.count ? returns[count - 1] : returned
        log.returned(index, more)
        return more
    }
    func receive(completion: Subscribers.Completion<Never>) {
        log.enter(index, "receive(completion:)")
        log.completions[index] += 1
        log.exit(index)
    }
}

/// A sink whose closures have a scheduling point inside, so an overlap would be seen.
func attachSink(_ subject: PassthroughSubject<Int, Never>, _ index: Int, _ log: Log, _ explorer: Explorer) {
    log.cancellables.append(
        subject.sink(
            receiveCompletion: { _ in
                log.enter(index, "completion")
                log.completions[index] += 1
                log.exit(index)
            },
            receiveValue: { value in
                log.enter(index, "value")
                explorer.point()
                log.value(index, value)
                log.exit(index)
            }))
}

/// An unlimited subscriber that, receiving `trigger`, sends `nested` into the same subject from
/// inside its `receive(_:)`. Calls may nest on one thread (the nested send is delivered at once,
/// inside the outer call), never overlap across threads.
final class NestedSender: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never
    let log: Log
    let explorer: Explorer
    let subject: PassthroughSubject<Int, Never>
    let trigger: Int
    let nested: Int
    var depth = 0
    var owner: pthread_t?
    /// The values whose calls were in progress when `nested` arrived.
    var outerOfNested: [Int]?
    var stack: [Int] = []
    let combineIdentifier = CombineIdentifier()
    init(log: Log, explorer: Explorer, subject: PassthroughSubject<Int, Never>, trigger: Int, nested: Int) {
        self.log = log
        self.explorer = explorer
        self.subject = subject
        self.trigger = trigger
        self.nested = nested
    }
    func receive(subscription: any Subscription) {
        log.subscriptions.append(subscription)
        subscription.request(.unlimited)
    }
    func receive(_ input: Int) -> Subscribers.Demand {
        if depth > 0, let owner, pthread_equal(owner, pthread_self()) == 0 {
            log.violations.append("two threads inside the subscriber at once (value \(input))")
        }
        depth += 1
        owner = pthread_self()
        if input == nested { outerOfNested = stack }
        stack.append(input)
        explorer.point()
        log.value(0, input)
        if input == trigger { log.send(subject, nested) }
        stack.removeLast()
        depth -= 1
        return .none
    }
    func receive(completion: Subscribers.Completion<Never>) {
        log.completions[0] += 1
    }
}

struct Script {
    let name: String
    /// At most this many executions (`nil`: all of them); the first command-line argument replaces it.
    var limit: Int? = nil
    /// Runs after every other script (the longest), so a mutation another catches is reported sooner.
    var runsLast = false
    /// Sets up (on the main thread, before the threads start) and returns the threads and the check.
    let make: (Explorer) -> (threads: [@Sendable () -> Void], check: () -> String?)
}

/// Every script, in the order they run.
let scripts: [Script] = {
    let all = conduitScripts() + publishedScripts() + observeScripts() + atomicScripts()
    return all.filter { !$0.runsLast } + all.filter(\.runsLast)
}()

let limitArgument = CommandLine.arguments.dropFirst().first.flatMap { Int($0) }
var failed = false
let started = clock_gettime_nsec()
/// EXPLORER_ONLY=text runs only the scripts whose name contains it.
let only = getenv("EXPLORER_ONLY").map { String(cString: $0) }
for script in scripts where only.map({ script.name.contains($0) }) ?? true {
    let scriptStarted = clock_gettime_nsec()
    var prefix: [Int] = []
    var executions = 0
    var exhaustive = false
    let limit = limitArgument ?? script.limit ?? Int.max
    while executions < limit {
        let explorer = Explorer(prefix: prefix)
        explorerHooks = explorer
        var violation: String?
        do {
            let (threads, check) = script.make(explorer)
            explorer.run(threads)
            violation = explorer.stuck ?? check() ?? explorer.unfairHandOver()
        }
        explorerHooks = nil
        executions += 1
        if let violation {
            print("VIOLATION in \"\(script.name)\" after \(executions) executions: \(violation)")
            print("  schedule: \(explorer.trace.map(\.choice))")
            exit(1)
        }
        var trace = explorer.trace
        while let last = trace.last, last.choice + 1 >= last.options { trace.removeLast() }
        guard let last = trace.popLast() else {
            exhaustive = true
            break
        }
        prefix = trace.map(\.choice) + [last.choice + 1]
    }
    let seconds = Double(clock_gettime_nsec() - scriptStarted) / 1e9
    print("\(script.name): \(executions) executions\(exhaustive ? " (all)" : " (limit reached)"), no violation, \(tenths(seconds)) s")
}
print("total \(tenths(Double(clock_gettime_nsec() - started) / 1e9)) s")

func clock_gettime_nsec() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

func tenths(_ seconds: Double) -> String {
    let tenths = Int((seconds * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
}
