import RippleTrackingTypes  // TrackingEvent

/// What makes `track`'s cancel final: the callback is called through this gate, and a cancel closes
/// it and waits for the calls under way on other threads. Once `cancel()` has returned, no call of
/// the callback starts or is still running on another thread.
///
/// Without it, a writer that had taken the callback from the observer when the cancel ran still
/// called it afterwards — one late call per writing thread, so several with several writers. A
/// cancel from inside the callback does not wait (a call under way on another thread may finish);
/// none starts after it either.
///
/// A ``TurnLock`` running a ``TrackGateMachine``: each method applies one transition under the lock
/// and acts on its answer (calling the callback, waking the cancel) after unlocking.
final class TrackCallGate: TurnLock<TrackGateMachine>, @unchecked Sendable {
    private let onChange: @Sendable (TrackingEvent) -> Void

    init(_ onChange: @escaping @Sendable (TrackingEvent) -> Void) {
        self.onChange = onChange
        super.init(state: TrackGateMachine())
    }

    /// Calls the callback unless the gate is closed.
    func call(_ event: TrackingEvent) {
        let thread = currentThreadID()
        lock.lock()
        let admitted = state.enter(thread)
        lock.unlock()
        guard admitted else { return }
        onChange(event)
        lock.lock()
        let canceller = state.leave(thread)
        lock.unlock()
        canceller?.wake()
    }

    /// Closes the gate: no call starts after this. Returns, for a cancel made outside the callback
    /// while calls are under way on other threads, the waiter to wait on (``TurnWaiter/waitForTurn()``,
    /// after unlocking everything): it is woken when the last of them returns. Only the first close
    /// does anything.
    func close() -> TurnWaiter? {
        let thread = currentThreadID()
        lock.lock()
        let outcome = state.cancel(thread)
        lock.unlock()
        guard case .wait(let waiter) = outcome else { return nil }
        return waiter
    }
}

/// The state of one ``TrackCallGate``, as a value: each transition is applied under the gate's lock
/// and says what the gate does next, after unlocking.
///
/// | state | enter | leave | cancel |
/// |---|---|---|---|
/// | open | records the call: `true` | forgets the call | → closed; calls on other threads under way and none on this thread: wait for them |
/// | closed | `false` | forgets the call; the last call on another thread than a waiting cancel's wakes it | nothing |
struct TrackGateMachine {
    private var closed = false
    /// The threads now inside the callback, one entry per call (a thread appears more than once
    /// when the callback triggers itself, nested).
    private var calling: [UInt] = []
    /// The cancel waiting for the calls under way on other threads.
    private var canceller: TurnWaiter?

    init() {}

    /// What ``cancel(_:)`` leaves the cancelling thread to do.
    enum CancelOutcome {
        /// Nothing: closed now with no call under way elsewhere, from inside a call, or already.
        case done
        /// Wait until `waiter` is woken: the last call under way on another thread has returned.
        case wait(TurnWaiter)
    }

    /// A call is about to start on `thread`: `true` to make it (the gate is open).
    mutating func enter(_ thread: UInt) -> Bool {
        guard !closed else { return false }
        calling.append(thread)
        return true
    }

    /// The call on `thread` returned. Returns the cancel to wake (after unlocking) when it was the
    /// last call that cancel waited for.
    mutating func leave(_ thread: UInt) -> TurnWaiter? {
        if let index = calling.lastIndex(of: thread) { calling.remove(at: index) }
        guard let waiter = canceller else { return nil }
        if let other = calling.first(where: { $0 != waiter.thread }) {
            waiter.queue.mirrorOwner(other)  // for the deadlock check: whom the cancel waits for now
            return nil
        }
        canceller = nil
        return waiter
    }

    /// Closes the gate, for a cancel on `thread`.
    mutating func cancel(_ thread: UInt) -> CancelOutcome {
        guard !closed else { return .done }
        closed = true
        // From inside the callback: no wait (the calls under way elsewhere may be waiting for
        // something this thread holds).
        guard !calling.contains(thread), let other = calling.first else { return .done }
        let queue = TurnQueue(name: "track")
        queue.mirrorOwner(other)  // a call that waits for the cancelling thread is then a reported deadlock
        let waiter = TurnWaiter(thread: thread, queue: queue)
        canceller = waiter
        return .wait(waiter)
    }
}
