#if canImport(Glibc)
import Glibc
#endif
import RippleCore

// The scripts over `observe`'s loop: the real `ObserveLoop` (its `ObserveMachine` and delivery
// turn, its `InlineCall`), run on a real `@Published` property (`PublishedBox`, its
// `PublishedObservation`, `TrackerState`), with the real tracking scope, `TrackingObserver`s armed
// on what each run read, and the loop's cancel waiting for a run under way.

/// The model the loops observe: one `@Published` property.
final class ObservedCounter: ObservableObject, @unchecked Sendable {
    @Published var count = 0
}

/// What a thread of an observe script does, in order.
enum ObserveStep: CustomStringConvertible {
    /// `ObserveLoop.start()`: the first run, on this thread.
    case start
    /// A store into the observed property.
    case write(Int)
    /// `ObserveLoop.cancel()`, once the loop has started (its first run began).
    case cancel
    /// Waits until `start()` returned on the thread that started the loop.
    case afterStart

    var description: String {
        switch self {
        case .start: "start"
        case .write(let value): "write(\(value))"
        case .cancel: "cancel"
        case .afterStart: "after start"
        }
    }
}

/// What the loop's body does besides reading the property.
enum ObserveBody: CaseIterable, CustomStringConvertible {
    case nothing
    /// Cancels its own loop from inside the first `compute`.
    case cancelsInCompute
    /// Cancels its own loop from inside the first `deliver`.
    case cancelsInDeliver
    /// Writes 9 from inside the first `deliver` (outside the tracking scope: a change like any other).
    case writesInDeliver
    /// Every `compute` writes what it read plus 100 (`observe { model.count += 100 }`), and
    /// returns the value after its write: its tracking scope absorbs that write.
    case writesWhatItReads

    var description: String {
        switch self {
        case .nothing: "does nothing"
        case .cancelsInCompute: "cancels its loop in compute"
        case .cancelsInDeliver: "cancels its loop in deliver"
        case .writesInDeliver: "writes 9 in deliver"
        case .writesWhatItReads: "writes what it reads"
        }
    }

    var cancels: Bool { self == .cancelsInCompute || self == .cancelsInDeliver }
}

/// Where the loop's re-runs are started.
enum ObserveExecutorKind: CustomStringConvertible {
    /// Inside `enqueue`, on the scheduling thread (`ObserveExecutor.immediate`).
    case inline
    /// On a thread of its own that runs the jobs one at a time, in order (a serial queue).
    case serialThread

    var description: String {
        switch self {
        case .inline: "inline executor"
        case .serialThread: "executor thread"
        }
    }
}

/// What one execution of an observe script saw, in the one order the explorer ran it (one thread
/// at a time). Written only by the running thread.
final class ObserveLog: @unchecked Sendable {
    var violations: [String] = []
    /// The thread whose run is under way: from the start of its `compute` to the end of its
    /// `deliver` (a run dropped by a cancel never delivers: no run may begin after it either).
    var runOwner: Int?
    var runs = 0
    /// What each run's `compute` read (before any write of its own).
    var reads: [Int] = []
    var delivered: [Int] = []
    /// Some thread called `cancel()`; some `cancel()` returned.
    var cancelCalled = false
    var cancelReturned = false
    /// More runs than any script's changes can cause: the loop runs forever.
    static let runLimit = 12

    func computeBegins(on thread: Int) {
        runs += 1
        if cancelReturned { violations.append("compute began on thread \(thread) after cancel() returned") }
        if let owner = runOwner {
            violations.append("compute began on thread \(thread) while thread \(owner)'s run was under way (or was dropped by a cancel)")
        }
        if runs == Self.runLimit + 1 { violations.append("the loop runs forever (\(runs) runs)") }
        runOwner = thread
    }

    func deliverBegins(_ value: Int, on thread: Int) {
        if cancelReturned { violations.append("deliver(\(value)) began on thread \(thread) after cancel() returned") }
        if runOwner != thread { violations.append("deliver(\(value)) began on thread \(thread) outside its run (run of \(runOwner.map(String.init) ?? "nobody"))") }
        delivered.append(value)
    }

    func deliverEnds() { runOwner = nil }
}

/// A one-way gate: `gate`, opened by the start of the loop's first run, which a thread that
/// cancels waits for (the loop must have started before it is cancelled); `returned`, opened once
/// `start()` returned, which `.afterStart` waits for. Explorer-level synchronization: plain fields (one thread
/// runs at a time) and the explorer's park and wake, so it adds no scheduling point of its own
/// but the park.
final class StartGate: @unchecked Sendable {
    let explorer: Explorer
    var open = false
    var sleepers: [ExplorerToken] = []
    /// Every token parked on, kept for the execution: the explorer knows a waiter by its address.
    var tokens: [ExplorerToken] = []

    init(explorer: Explorer) { self.explorer = explorer }

    func openIfNeeded() {
        guard !open else { return }
        open = true
        for sleeper in sleepers { _ = explorer.wake(sleeper) }
        sleepers = []
    }

    func wait() {
        guard !open else { return }
        let token = ExplorerToken()
        tokens.append(token)
        sleepers.append(token)
        _ = explorer.park(token)
    }

    /// Thread `index` starts waiting at this gate: its body begins once the gate opens. The same
    /// as a `wait()` as the body's first step, without the executions that differ only in when
    /// the thread reached it.
    func startParked(_ index: Int) {
        let token = ExplorerToken()
        tokens.append(token)
        sleepers.append(token)
        explorer.startParked(index, on: token)
    }
}

/// A thing to park on.
final class ExplorerToken {}

/// A serial executor running its jobs on a thread the explorer runs: jobs in order, one at a time;
/// it sleeps (the explorer's park) while it has none, and ends once every script thread has ended
/// and its jobs are done. Plain fields, as `StartGate`.
final class SerialJobs: @unchecked Sendable {
    let explorer: Explorer
    var jobs: [@Sendable () -> Void] = []
    /// Script threads still running (each may enqueue).
    var producers: Int
    var sleeper: AnyObject?
    /// Every token parked on, kept for the execution: the explorer knows a waiter by its address.
    var tokens: [ExplorerToken] = []

    init(explorer: Explorer, producers: Int) {
        self.explorer = explorer
        self.producers = producers
    }

    /// The executor's thread (`index`) starts asleep: it has nothing to do before the first job.
    func startAsleep(_ index: Int) {
        let token = ExplorerToken()
        tokens.append(token)
        sleeper = token
        explorer.startParked(index, on: token)
    }

    func enqueue(_ job: @escaping @Sendable () -> Void) {
        jobs.append(job)
        wakeSleeper()
    }

    func producerEnded() {
        producers -= 1
        if producers == 0 { wakeSleeper() }
    }

    private func wakeSleeper() {
        if let sleeper = sleeper.take() { _ = explorer.wake(sleeper) }
    }

    func run() {
        while true {
            if !jobs.isEmpty {
                let job = jobs.removeFirst()
                job()
                continue
            }
            if producers == 0 { return }
            let token = ExplorerToken()
            tokens.append(token)
            sleeper = token
            _ = explorer.park(token)
        }
    }
}

/// Holds the loop for the closures made before it.
final class LoopHolder: @unchecked Sendable {
    var loop: ObserveLoop<Int>?
}

/// One observe script: the loop started by one of `threads`, the body, the executor.
func observeScript(_ threads: [[ObserveStep]], body: ObserveBody, executor: ObserveExecutorKind) -> Script {
    let name = "observe, \(executor), body \(body): threads \(threads)"
    return Script(name: name) { explorer in
        let model = ObservedCounter()
        // A tracked read before the threads start: the property's observation exists (as for any
        // property somebody observed before), so the scripts explore the loop, not its making.
        _ = withAccesses({ model.count }) { value, _ in value }
        let log = ObserveLog()
        let gate = StartGate(explorer: explorer)
        let returned = StartGate(explorer: explorer)
        let holder = LoopHolder()
        let jobs = executor == .serialThread ? SerialJobs(explorer: explorer, producers: threads.count) : nil
        let enqueue: @Sendable (@escaping @Sendable () -> Void) -> Void
        if let jobs { enqueue = { jobs.enqueue($0) } } else { enqueue = { $0() } }
        // Which script thread runs a body: each registers itself as it starts.
        let indices = ThreadIndices()
        let loop = ObserveLoop<Int>(
            enqueue: enqueue,
            compute: {
                let me = indices.current
                log.computeBegins(on: me)
                gate.openIfNeeded()
                let first = log.runs == 1
                var value = model.count
                log.reads.append(value)
                if body == .writesWhatItReads, log.runs <= ObserveLog.runLimit {
                    model.count = value + 100
                    value = model.count
                }
                if body == .cancelsInCompute, first {
                    log.cancelCalled = true
                    holder.loop!.cancel()
                    log.cancelReturned = true
                }
                return value
            },
            deliver: { value in
                let me = indices.current
                log.deliverBegins(value, on: me)
                if log.delivered.count == 1 {
                    switch body {
                    case .cancelsInDeliver:
                        log.cancelCalled = true
                        holder.loop!.cancel()
                        log.cancelReturned = true
                    case .writesInDeliver:
                        model.count = 9
                    default:
                        break
                    }
                }
                log.deliverEnds()
            })
        holder.loop = loop
        for (index, steps) in threads.enumerated() {
            switch steps.first {
            case .cancel: gate.startParked(index)
            case .afterStart: returned.startParked(index)
            default: break
            }
        }
        var bodies: [@Sendable () -> Void] = threads.enumerated().map { index, steps in
            {
                indices.register(index)
                for step in steps {
                    switch step {
                    case .start:
                        loop.start()
                        returned.openIfNeeded()
                    case .afterStart:
                        returned.wait()
                    case .write(let value):
                        model.count = value
                    case .cancel:
                        gate.wait()
                        log.cancelCalled = true
                        loop.cancel()
                        log.cancelReturned = true
                    }
                }
                jobs?.producerEnded()
            }
        }
        if let jobs {
            let index = threads.count
            jobs.startAsleep(index)
            bodies.append {
                indices.register(index)
                jobs.run()
            }
        }
        let outsideWrites = threads.joined().filter { if case .write = $0 { true } else { false } }.count
        return (
            bodies,
            {
                if let first = log.violations.first { return first }
                if log.runOwner != nil, !log.cancelCalled { return "a run never delivered" }
                if body == .writesWhatItReads, outsideWrites == 0, log.runs != 1 {
                    return "the body's own writes ran it again (\(log.runs) runs, nobody else wrote)"
                }
                // Progress: unless cancelled, the last delivery is the property's last value.
                if !log.cancelCalled {
                    // A body that writes what it read stores over another thread's write, so the
                    // last value alone cannot show that write went unseen; but the last run reads
                    // after every other thread's store, so not the initial value.
                    if body == .writesWhatItReads, outsideWrites > 0, log.reads.last == 0 {
                        return "the last run read the initial value 0 though another thread wrote: that write went unseen (reads \(log.reads))"
                    }
                    let last = model.count
                    if log.delivered.last != last {
                        return "lost update: the last delivery was \(log.delivered.last.map(String.init) ?? "none"), the property holds \(last) (delivered \(log.delivered))"
                    }
                }
                return nil
            }
        )
    }
}

/// The explorer's threads by `pthread_self`, for the log (which thread runs a body).
final class ThreadIndices: @unchecked Sendable {
    var byThread: [UInt: Int] = [:]

    func register(_ index: Int) { byThread[UInt(pthread_self())] = index }

    var current: Int { byThread[UInt(pthread_self())] ?? -1 }
}

/// A subscriber of the tracked publisher's subject that cancels from inside its first value (the
/// current value, replayed inside its request), as `first()` does: the loop's cancel first
/// (`handleEvents(receiveCancel:)`), without waiting for a run, then the subscription.
final class CancelsOnFirstValue: Subscriber, @unchecked Sendable {
    typealias Input = Int
    typealias Failure = Never
    let holder: LoopHolder
    /// Called inside the first value, before the cancel (holding the subscriber's turn).
    let onFirstValue: () -> Void
    var subscription: (any Subscription)?
    var received: [Int] = []
    var cancelled = false
    var afterCancel = 0
    let combineIdentifier = CombineIdentifier()

    init(holder: LoopHolder, onFirstValue: @escaping () -> Void) {
        self.holder = holder
        self.onFirstValue = onFirstValue
    }

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        subscription.request(.unlimited)
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        if cancelled { afterCancel += 1 }
        received.append(input)
        if !cancelled {
            cancelled = true
            onFirstValue()
            holder.loop!.cancel(waitingForARun: false)
            subscription!.cancel()
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {}
}

/// `TrackedPublisher`'s subject, made by the first run (as Ripple's `LatestValue`).
final class LatestSubject: @unchecked Sendable {
    let stored = LockedValue<CurrentValueSubject<Int, Never>?>(nil)

    var subject: CurrentValueSubject<Int, Never>? { stored.withLock { $0 } }

    func send(_ value: Int) {
        let existing = stored.withLock { stored -> CurrentValueSubject<Int, Never>? in
            if let subject = stored { return subject }
            stored = CurrentValueSubject<Int, Never>(value)
            return nil
        }
        existing?.send(value)
    }
}

/// Every observe script: the loop started on thread 0 (in one, cancelled there once `start()`
/// returned, as a caller cancels the token `observe` returned); the other threads write, cancel,
/// or both, at once or once `start()` returned. Chosen so that every body and both executors meet
/// a racing thread, and each transition's window a racing write or cancel, within the explorer's
/// time: every script is explored exhaustively.
func observeScripts() -> [Script] {
    let inline = ObserveExecutorKind.inline, serial = ObserveExecutorKind.serialThread
    let cases: [([[ObserveStep]], ObserveBody, ObserveExecutorKind)] = [
        ([[.start], [.write(1)]], .nothing, inline),
        ([[.start], [.cancel]], .nothing, inline),
        ([[.start, .cancel], [.afterStart, .write(1)]], .nothing, inline),
        ([[.start], [.afterStart, .write(1)], [.afterStart, .cancel]], .nothing, inline),
        ([[.start], [.write(1)]], .cancelsInCompute, inline),
        ([[.start], [.cancel]], .cancelsInDeliver, inline),
        ([[.start]], .writesInDeliver, inline),
        ([[.start]], .writesWhatItReads, inline),
        ([[.start], [.write(1)]], .writesWhatItReads, inline),
        ([[.start], [.cancel]], .nothing, serial),
        ([[.start], [.afterStart, .write(1), .cancel]], .nothing, serial),
        ([[.start], [.afterStart, .write(1), .write(2)]], .nothing, serial),
    ]
    return cases.map { observeScript($0.0, body: $0.1, executor: $0.2) } + [trackedPublisherScript()]
}

/// `TrackedPublisher { model.count }` reassembled from its parts (the publisher itself is in the
/// Ripple module, outside the engine target): a loop delivering into a `CurrentValueSubject` its
/// first run made. Thread 0 subscribes, and its subscriber cancels from inside the replay of the
/// current value, holding its turn, while thread 1's write runs the loop, whose `deliver` sends
/// into the subject and waits for that turn. The cancel must not wait for that run (a cycle).
func trackedPublisherScript() -> Script {
    Script(name: "observe, TrackedPublisher: a cancel from inside the subject's replay while a write's run delivers into it") { explorer in
        let model = ObservedCounter()
        let latest = LatestSubject()
        let holder = LoopHolder()
        let loop = ObserveLoop<Int>(enqueue: { $0() }, compute: { model.count }, deliver: { latest.send($0) })
        holder.loop = loop
        // Thread 1 writes once thread 0's subscriber is inside the replay, holding its turn: the
        // window where the run the write starts waits for that turn.
        let replaying = StartGate(explorer: explorer)
        let subscriber = CancelsOnFirstValue(holder: holder) { replaying.openIfNeeded() }
        replaying.startParked(1)
        return (
            [
                {
                    loop.start()
                    latest.subject!.subscribe(subscriber)
                },
                { model.count = 1 },
            ],
            {
                if subscriber.afterCancel > 0 { return "\(subscriber.afterCancel) values reached the subscriber after it cancelled" }
                if subscriber.received.isEmpty { return "the subscriber got no value (the current one is owed)" }
                return nil
            }
        )
    }
}
