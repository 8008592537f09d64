/// Where ``observe(on:isolation:_:)`` re-runs its closure.
public struct ObserveExecutor: Sendable {
    let enqueue: @Sendable (@escaping @Sendable () -> Void) -> Void

    /// Re-runs synchronously on the thread that made the change, right after the store.
    public static let immediate = ObserveExecutor { job in job() }

    /// Re-runs on the main actor.
    public static let mainActor = ObserveExecutor { job in
        Task { @MainActor in job() }
    }

    /// Re-runs isolated to `actor`.
    public static func actor(_ actor: some Actor) -> ObserveExecutor {
        ObserveExecutor { job in
            Task { await runIsolated(to: actor, job) }
        }
    }

    /// Re-runs wherever `enqueue` puts the job (a queue, a run loop, a test's manual executor).
    ///
    /// ```swift
    /// let executor = ObserveExecutor.custom { job in DispatchQueue.main.async(execute: job) }
    /// ```
    public static func custom(_ enqueue: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) -> ObserveExecutor {
        ObserveExecutor(enqueue: enqueue)
    }
}

private func runIsolated(to actor: isolated any Actor, _ job: @Sendable () -> Void) {
    job()
}

/// Runs `body` now, and again whenever a tracked property it read changes — re-tracking each time,
/// so the set of properties follows what the latest run read.
///
/// - Re-runs read the new values (they start after the store).
/// - Bursts coalesce: changes that land while a re-run is pending or running cause one more run,
///   not one per change. A change made on another thread while a run is under way is picked up by
///   the thread running it, which runs again right after (for as long as such changes keep coming).
/// - A body that writes what it reads (`observe { model.count += 1 }`) runs once per outside
///   change: its own writes do not trigger it.
/// - `body` runs where its caller is isolated: called from `@MainActor` code it may touch
///   main-actor state, and its re-runs happen on the main actor (at once when the change is made on
///   the main thread, otherwise right after); called from inside an actor, its re-runs are isolated
///   to that actor. From non-isolated code it re-runs wherever `executor` says (by default
///   synchronously, on the thread that made the change).
/// - `body` need not be `@Sendable`, as a `sink`'s closure need not be: a view model that is not
///   isolated to an actor can observe itself from its `init` (`observe { [weak self] in … }`).
///   Runs never overlap, but from non-isolated code they happen on the threads that make the
///   changes, as a `sink`'s values arrive on the threads that send them: what `body` touches must be
///   safe to touch there (an isolated caller's re-runs stay on its actor).
/// - Cancelling the returned token is final: once `cancel()` returns, no run starts, from any
///   thread. A run already under way on another thread is waited for; a cancel from inside the body
///   does not wait for itself.
///
/// ```swift
/// let token = observe { print("apples:", basket.apples) }
/// // Prints "apples: 0"
/// basket.peaches += 1   // not read: nothing
/// basket.apples += 1
/// // Prints "apples: 1"
/// ```
///
/// - Parameters:
///   - executor: Where re-runs are started. The body of an isolated caller still runs isolated to
///     its actor.
///   - isolation: The caller's isolation (leave the default): the actor the first run happens on
///     and re-runs return to.
///   - body: The closure to run and re-run.
/// - Returns: A token that cancels the observation (also when released).
public func observe(
    on executor: ObserveExecutor = .immediate,
    isolation: isolated (any Actor)? = #isolation,
    _ body: @escaping () -> Void
) -> AnyCancellable {
    if let isolation, isolation === MainActor.shared { noteMainActorThread() }
    let body = ObserveBody(run: body)
    let loop = ObserveLoop<Void>(
        executor: executor, isolation: isolation, compute: { body.run() }, deliver: { _ in })
    loop.start()
    return AnyCancellable { loop.cancel() }
}

/// The closure ``observe(on:isolation:_:)`` runs, which need not be `Sendable`.
///
/// Safe to share because the loop never runs it on two threads at once (each run holds the loop's
/// delivery turn), an isolated caller's runs all happen on its actor, and a non-isolated caller's
/// happen on the threads that change what it read — the contract `sink` has for its closure.
private struct ObserveBody: @unchecked Sendable {
    let run: () -> Void
}

/// The engine behind ``observe(on:isolation:_:)``, the tracked publisher and the tracked async sequence:
/// `compute` runs tracked, `deliver` gets its result outside the tracking scope.
///
/// A ``TurnStorage`` running an ``ObserveMachine``: each method applies one transition under the
/// lock and acts on its answer after unlocking. The thread running `compute` and `deliver` holds the
/// storage's delivery turn (no lock is held while they run), so a cancel from another thread waits
/// its turn behind a run that was admitted before it.
final class ObserveLoop<Value>: TurnStorage<ObserveMachine>, @unchecked Sendable {
    private let executor: ObserveExecutor
    private let isolation: (any Actor)?
    private let compute: @Sendable () -> Value
    private let deliver: @Sendable (Value) -> Void

    init(
        executor: ObserveExecutor, isolation: (any Actor)? = nil, compute: @escaping @Sendable () -> Value,
        deliver: @escaping @Sendable (Value) -> Void
    ) {
        self.executor = executor
        self.isolation = isolation
        self.compute = compute
        self.deliver = deliver
        super.init(state: ObserveMachine())
    }

    /// The first run happens synchronously, on the caller's thread.
    func start() {
        lock.lock()
        state.start()
        takeRunTurnLocked()
        lock.unlock()
        runUntilSettled()
    }

    /// Runs (the caller took the turn and admitted the run), then keeps going while changes arrive
    /// during the runs and the executor hands the next run back to this thread. Iterative: a writer
    /// that keeps changing what the body reads never deepens this thread's stack.
    private func runUntilSettled() {
        while runOnce() {
            guard schedule() else { return }  // the executor started it elsewhere, or will
            guard admit() else { return }  // cancelled meanwhile
        }
    }

    /// Runs `compute` and `deliver` holding the turn, then gives it back. Returns `true` when
    /// a change arrived meanwhile: the next run is then `.scheduled`, for the caller to schedule.
    private func runOnce() -> Bool {
        var cancelled = false
        let value = withAccesses(compute) { value, accesses in
            let next = TrackingObserver(phases: .didSet, continuous: false) { [weak self] _ in
                self?.changed()
            }
            lock.lock()
            let outcome = state.install(next)
            lock.unlock()
            guard case .installed(let previous) = outcome else {
                cancelled = true
                return value
            }
            if previous == nil, accesses.isEmpty, !externalScopeHookInstalled.load(ordering: .relaxed) {
                // The first run read nothing: unless it read a model of another system that no
                // bridge reports (an @Observable one), this observer is a mistake worth naming.
                RuntimeWarning.observerReadNothing.raise()
            }
            previous?.cancel()
            next.arm(on: accesses)  // fires at once if another thread changed something after it was read
            return value
        }
        if !cancelled { deliver(value) }
        lock.lock()
        let again = state.runEnded()
        leaveTurnLocked()  // hands the turn to a cancel waiting for this run
        return again
    }

    private func changed() {
        lock.lock()
        let schedules = state.changed()
        lock.unlock()
        if schedules, schedule(), admit() { runUntilSettled() }
    }

    /// Hands the scheduled run to the executor. Returns `true` when the run is to start on this
    /// thread, now: the executor ran the job synchronously, inside `enqueue`, and the job left the
    /// run to this caller rather than nest it in the caller's stack.
    private func schedule() -> Bool {
        let call = InlineCall()
        executor.enqueue { [self] in
            if let isolation, !(isolation === MainActor.shared && isOnMainActorThread()) {
                Task { await runIsolated(to: isolation) { self.admitAndRun() } }
                return
            }
            if call.leaveToCaller() { return }
            admitAndRun()
        }
        return call.finish()
    }

    /// Starts the scheduled run from an executor's job.
    private func admitAndRun() {
        if admit() { runUntilSettled() }
    }

    /// Admits the scheduled run unless it was cancelled meanwhile (decided under the lock, so a
    /// cancel either prevents the run or waits for it).
    private func admit() -> Bool {
        lock.lock()
        guard state.admit() else {
            lock.unlock()
            return false
        }
        takeRunTurnLocked()
        lock.unlock()
        return true
    }

    /// Takes the turn for a run. Runs are admitted one at a time (the machine's `status`), and a
    /// cancel takes the turn only once the loop is cancelled, so the turn is free here.
    private func takeRunTurnLocked() {
        guard case .call(nested: false) = turn.enter(currentThreadID(), name: "observe") else {
            fatalError("Ripple: internal error: an observe run was admitted while another held its turn")
        }
    }

    /// Stops the loop: no run starts after this. With `waitingForARun`, a run admitted before it and
    /// under way on another thread is waited for, so nothing of the loop runs once `cancel()` has
    /// returned (from inside a run the turn is this thread's already: no wait).
    ///
    /// `TrackedPublisher` does not wait: its cancel comes from inside a delivery of the subject the
    /// runs deliver into, holding that subscriber's turn, and a run's `deliver` may be waiting for
    /// exactly that turn (a cycle). The subject makes its own cancel final instead: a value a run
    /// sends after it reaches no subscriber.
    func cancel(waitingForARun: Bool = true) {
        lock.lock()
        let observer = state.cancel()
        lock.unlock()
        observer?.cancel()
        guard waitingForARun else { return }
        lock.lock()
        awaitTurnLocked(name: "observe")
    }
}

/// The state of one ``ObserveLoop``, as a value: each transition is applied under the loop's lock
/// and says what the loop does next, after unlocking. Runs are admitted one at a time.
///
/// | status | start | install (a run read) | runEnded | changed | admit | cancel |
/// |---|---|---|---|---|---|---|
/// | idle | → running | – | – | → scheduled: schedule a run | false | → cancelled |
/// | scheduled | – | – | – | nothing | → running: true | → cancelled |
/// | running | – | keeps the observer, hands back the last one | dirty: → scheduled, again; else → idle | dirty | false | → cancelled |
/// | cancelled | – | `.cancelled`: drops the run's result | stays | nothing | false | nothing more |
struct ObserveMachine {
    enum Status: Equatable {
        /// Armed on what the last run read; nothing under way.
        case idle
        /// A change was seen; a run is handed to the executor.
        case scheduled
        /// A thread is running `compute` and `deliver`, holding the loop's turn.
        case running
        /// Final: no run is admitted, no result delivered.
        case cancelled
    }

    /// What ``install(_:)`` decided about a run's result.
    enum Install {
        /// Keep the run's observer (arm it) and cancel `previous`, the last run's, after unlocking.
        case installed(previous: TrackingObserver?)
        /// The loop was cancelled meanwhile: drop the result and the observer.
        case cancelled
    }

    private(set) var status = Status.idle
    /// A change arrived while running: run once more when done.
    private(set) var dirty = false
    /// The observer armed on what the last run read.
    private(set) var observer: TrackingObserver?

    /// The first run, started synchronously by the loop's creator.
    mutating func start() {
        require(status == .idle, "Ripple: internal error: an observe loop started twice")
        status = .running
    }

    /// A run finished its tracking scope with `next` made for what it read.
    mutating func install(_ next: TrackingObserver) -> Install {
        guard status != .cancelled else { return .cancelled }
        let previous = observer
        observer = next
        return .installed(previous: previous)
    }

    /// A run (compute and deliver) is over. Returns `true` when a change arrived during it: one more
    /// run, for all of it, is then scheduled by the caller.
    mutating func runEnded() -> Bool {
        guard status == .running else { return false }
        if dirty {
            dirty = false
            status = .scheduled
            return true
        }
        status = .idle
        return false
    }

    /// A change of something the last run read. Returns `true` when the caller is to schedule a run.
    mutating func changed() -> Bool {
        switch status {
        case .idle:
            status = .scheduled
            return true
        case .running:
            dirty = true
            return false
        case .scheduled, .cancelled:
            return false
        }
    }

    /// The executor starts the scheduled run: `false` when it was cancelled meanwhile.
    mutating func admit() -> Bool {
        guard status == .scheduled else { return false }
        status = .running
        return true
    }

    /// Cancels for good. Returns the observer to cancel after unlocking.
    mutating func cancel() -> TrackingObserver? {
        status = .cancelled
        dirty = false
        return observer.take()
    }
}

/// One `enqueue` of an ``ObserveLoop``'s run: whether the executor ran the job synchronously, on
/// the scheduling thread, before `enqueue` returned (the job then leaves the run to the scheduler).
private final class InlineCall: @unchecked Sendable {
    private struct State {
        var enqueuing = true
        var leftToCaller = false
    }

    private let lock = Lock()
    private let thread = currentThreadID()
    @exclusivity(unchecked) private var state = State()

    /// Called by the job: `true` when it runs inside `enqueue` on the scheduling thread.
    func leaveToCaller() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard state.enqueuing, thread == currentThreadID() else { return false }
        state.leftToCaller = true
        return true
    }

    /// Called once `enqueue` returned: whether the job left the run to the caller.
    func finish() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        state.enqueuing = false
        return state.leftToCaller
    }
}

/// A publisher of a tracked expression: its value on subscription, then its new value after every
/// change of a tracked property it read (coalesced; with zero demand only the latest is kept).
///
/// After the subscription is cancelled no value reaches the subscriber; an evaluation already under
/// way on another thread may still finish (its value is dropped). Unlike ``observe(on:isolation:_:)``, the
/// cancel does not wait for it: it may come from inside the very delivery that evaluation waits for.
///
/// ```swift
/// let total = TrackedPublisher { basket.apples + basket.peaches }
/// let cancellable = total.sink { print("total:", $0) }
/// basket.apples = 2
/// // Prints "total: 0", then "total: 2"
/// ```
public struct TrackedPublisher<Output>: Publisher, Sendable {
    public typealias Failure = Never

    private let expression: @Sendable () -> Output

    /// Creates a publisher of `expression`, re-evaluated when what it read changes.
    public init(_ expression: @escaping @Sendable () -> Output) {
        self.expression = expression
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        let latest = LatestValue<Output>()
        let loop = ObserveLoop(executor: .immediate, compute: expression, deliver: { latest.send($0) })
        loop.start()
        latest.subject!
            .handleEvents(receiveCancel: { loop.cancel(waitingForARun: false) })
            .subscribe(subscriber)
    }
}

/// Holds the subject a tracked publisher delivers into (created by the first, synchronous run).
private final class LatestValue<Output>: @unchecked Sendable {
    private let lock = Lock()
    private var stored: CurrentValueSubject<Output, Never>?

    var subject: CurrentValueSubject<Output, Never>? {
        lock.withLock { stored }
    }

    func send(_ value: Output) {
        lock.lock()
        if let subject = stored {
            lock.unlock()
            subject.send(value)
        } else {
            stored = CurrentValueSubject(value)
            lock.unlock()
        }
    }
}

/// An asynchronous sequence of a tracked expression: its current value, then its value after every
/// change of what it read (coalesced: a slow consumer sees the latest, not every intermediate).
///
/// ```swift
/// for await apples in TrackedValues({ basket.apples }) {
///     print(apples)
/// }
/// ```
public struct TrackedValues<Element: Sendable>: AsyncSequence, Sendable {
    public typealias Failure = Never

    private let expression: @Sendable () -> Element

    /// Creates the sequence of `expression`, re-evaluated when what it read changes.
    public init(_ expression: @escaping @Sendable () -> Element) {
        self.expression = expression
    }

    public func makeAsyncIterator() -> AsyncStream<Element>.Iterator {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let loop = ObserveLoop(executor: .immediate, compute: expression, deliver: { continuation.yield($0) })
        continuation.onTermination = { _ in loop.cancel() }
        loop.start()
        return stream.makeAsyncIterator()
    }
}
