#if canImport(Glibc)
import Glibc
#endif
import RippleEngine

/// What one execution of a script recorded, in the one order the explorer ran it (one thread at a
/// time, so a plain counter orders every event). Written only by the running thread.
final class Log: @unchecked Sendable {
    var clock = 0
    var violations: [String] = []
    /// Per subscriber: the values it received, in order; whether a call is in progress; completions.
    var received: [[Int]]
    var inside: [Bool]
    var completions: [Int]
    var valuesAfterCompletion = 0
    var sendStart: [Int: Int] = [:]
    var sendEnd: [Int: Int] = [:]
    var completionStart = Int.max
    var completionEnd = Int.max
    /// Per subscriber: when its demand was granted (0: before the threads started).
    var demandGranted: [Int]
    var cancellables: [AnyCancellable] = []
    var subscriptions: [any Subscription] = []

    init(subscribers: Int) {
        received = Array(repeating: [], count: subscribers)
        inside = Array(repeating: false, count: subscribers)
        completions = Array(repeating: 0, count: subscribers)
        demandGranted = Array(repeating: 0, count: subscribers)
    }

    func tick() -> Int {
        clock += 1
        return clock
    }

    func enter(_ subscriber: Int, _ what: String) {
        if inside[subscriber] { violations.append("two threads inside subscriber \(subscriber) at once (\(what))") }
        inside[subscriber] = true
    }

    func exit(_ subscriber: Int) { inside[subscriber] = false }

    func value(_ subscriber: Int, _ value: Int) {
        if completions[subscriber] > 0 { valuesAfterCompletion += 1 }
        received[subscriber].append(value)
    }

    func send(_ subject: PassthroughSubject<Int, Never>, _ value: Int) {
        sendStart[value] = tick()
        subject.send(value)
        sendEnd[value] = tick()
    }

    func complete(_ subject: PassthroughSubject<Int, Never>) {
        completionStart = tick()
        subject.send(completion: .finished)
        completionEnd = tick()
    }

    /// Progress and safety for every subscriber: each value sent while it had demand and before the
    /// completion started delivered exactly once, none twice, none after the completion, none
    /// sent after the completion returned; each sender's values in its order; completion once.
    func check(senders: [[Int]]) -> String? {
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
                let must = start > demandGranted[subscriber] && sendEnd[value]! < completionStart
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
    /// Asked for in `receive(subscription:)`, and returned by every `receive(_:)`.
    let demand: Subscribers.Demand
    let returned: Subscribers.Demand
    let combineIdentifier = CombineIdentifier()
    init(
        log: Log, explorer: Explorer, index: Int, demand: Subscribers.Demand = .unlimited,
        returned: Subscribers.Demand = .none
    ) {
        self.log = log
        self.explorer = explorer
        self.index = index
        self.demand = demand
        self.returned = returned
    }
    func receive(subscription: any Subscription) {
        log.enter(index, "receive(subscription:)")
        log.subscriptions.append(subscription)
        subscription.request(demand)
        log.demandGranted[index] = log.tick()
        explorer.point()
        log.exit(index)
    }
    func receive(_ input: Int) -> Subscribers.Demand {
        log.enter(index, "receive(_:)")
        explorer.point()
        log.value(index, input)
        log.exit(index)
        return returned
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

struct Script {
    let name: String
    /// At most this many executions (`nil`: all of them); the first command-line argument replaces it.
    var limit: Int? = nil
    /// Sets up (on the main thread, before the threads start) and returns the threads and the check.
    let make: (Explorer) -> (threads: [@Sendable () -> Void], check: () -> String?)
}

let scripts: [Script] = [
    Script(name: "two sinks, two senders, one then completes", limit: 20_000) { explorer in
        let subject = PassthroughSubject<Int, Never>()
        let log = Log(subscribers: 2)
        attachSink(subject, 0, log, explorer)
        attachSink(subject, 1, log, explorer)
        let senders = [[1], [10]]
        return (
            [
                {
                    for value in senders[0] { log.send(subject, value) }
                    log.complete(subject)
                },
                { for value in senders[1] { log.send(subject, value) } },
            ],
            { log.check(senders: senders) }
        )
    },
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
    Script(name: "demand one at a time: a subscriber asks for 1 and returns 1 from each value") { explorer in
        // One thread: each send finds the demand the previous delivery returned.
        let subject = PassthroughSubject<Int, Never>()
        let log = Log(subscribers: 1)
        let senders = [[1, 2, 3]]
        return (
            [
                {
                    subject.subscribe(SettingUp(log: log, explorer: explorer, index: 0, demand: .max(1), returned: .max(1)))
                    for value in senders[0] { log.send(subject, value) }
                    log.complete(subject)
                },
            ],
            { log.check(senders: senders) }
        )
    },
    Script(name: "one sink, three senders (two waiters queue up)") { explorer in
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
]

let limitArgument = CommandLine.arguments.dropFirst().first.flatMap { Int($0) }
var failed = false
let started = clock_gettime_nsec()
for script in scripts {
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
