import RippleTrackingTypes  // TrackingPhase (not re-exported: Ripple's, not Combine's)

/// The engine behind Ripple's `observe(on:_:)`, its tracked publisher and tracked async sequence:
/// `compute` runs tracked, `deliver` gets its result outside the tracking scope.
///
/// A ``TurnStorage`` running an ``ObserveMachine``: each method applies one transition under the
/// lock and acts on its answer after unlocking. The thread running `compute` and `deliver` holds the
/// storage's delivery turn (no lock is held while they run), so a cancel from another thread waits
/// its turn behind a run that was admitted before it.
package final class ObserveLoop<Value>: TurnStorage<ObserveMachine>, @unchecked Sendable {
    /// Where re-runs are started (Ripple's `ObserveExecutor`).
    private let enqueue: @Sendable (@escaping @Sendable () -> Void) -> Void
    private let isolation: (any Actor)?
    private let compute: @Sendable () -> Value
    private let deliver: @Sendable (Value) -> Void

    package init(
        enqueue: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void, isolation: (any Actor)? = nil,
        compute: @escaping @Sendable () -> Value, deliver: @escaping @Sendable (Value) -> Void
    ) {
        self.enqueue = enqueue
        self.isolation = isolation
        self.compute = compute
        self.deliver = deliver
        super.init(state: ObserveMachine())
    }

    /// The first run happens synchronously, on the caller's thread.
    package func start() {
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
        let value = withAccesses(phase: .didSet, compute) { value, accesses in
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
            if previous == nil, accesses.isEmpty, !externalScopeHookIsInstalled {
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
        enqueue { [self] in
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
        guard takeFreeTurnLocked(name: "observe") else {
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
    package func cancel(waitingForARun: Bool = true) {
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
package struct ObserveMachine {
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
private final class InlineCall: LockedValue<InlineCallState>, @unchecked Sendable {
    private let thread = currentThreadID()

    init() { super.init(InlineCallState()) }

    /// Called by the job: `true` when it runs inside `enqueue` on the scheduling thread.
    func leaveToCaller() -> Bool {
        let onCaller = thread == currentThreadID()
        return withLock { state in
            guard state.enqueuing, onCaller else { return false }
            state.leftToCaller = true
            return true
        }
    }

    /// Called once `enqueue` returned: whether the job left the run to the caller.
    func finish() -> Bool {
        withLock { state in
            state.enqueuing = false
            return state.leftToCaller
        }
    }
}

/// ``InlineCall``'s state.
private struct InlineCallState {
    var enqueuing = true
    var leftToCaller = false
}

/// Runs `job` isolated to `actor`.
func runIsolated(to actor: isolated any Actor, _ job: @Sendable () -> Void) {
    job()
}
