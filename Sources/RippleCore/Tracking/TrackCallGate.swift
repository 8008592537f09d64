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
    init(_ onChange: @escaping @Sendable (TrackingEvent) -> Void) {
        super.init(state: TrackGateMachine(onChange))
    }

    /// Calls the callback unless the gate is closed.
    func call(_ event: TrackingEvent) {
        let thread = currentThreadID()
        lock.lock()
        let onChange = state.enter(thread)
        lock.unlock()
        guard let onChange else { return }
        onChange(event)
        lock.lock()
        let canceller = state.leave(thread)
        lock.unlock()
        canceller?.wake()
    }

    /// Closes the gate: no call starts after this, and the callback is released (a call under way
    /// keeps its own reference until it returns). Returns, for a cancel made outside the callback
    /// while calls are under way on other threads, the waiter to wait on
    /// (``TurnWaiter/waitForTurn()``, after unlocking everything): it is woken when the last of
    /// them returns. Only the first close does anything.
    func close() -> TurnWaiter? {
        let thread = currentThreadID()
        lock.lock()
        let closing = state.cancel(thread)
        lock.unlock()
        _ = closing.released  // released after unlocking: its captures' deinits are user code
        return closing.waiter
    }
}

/// The state of one ``TrackCallGate``, as a value: each transition is applied under the gate's lock
/// and says what the gate does next, after unlocking.
///
/// | state | enter | leave | cancel |
/// |---|---|---|---|
/// | open | records the call, hands out the callback | forgets the call | → closed, hands back the callback to release; calls under way on other threads and none on this one: wait for them |
/// | closed | `nil` | forgets the call; the last call a waiting cancel waits for wakes it | nothing |
struct TrackGateMachine {
    /// The callback; `nil` once closed.
    private var onChange: (@Sendable (TrackingEvent) -> Void)?
    /// The threads now inside the callback, one entry per call (a thread appears more than once
    /// when the callback triggers itself, nested).
    private var calling: [UInt] = []
    /// The cancel waiting for the calls under way on other threads.
    private var canceller: TurnWaiter?

    init(_ onChange: @escaping @Sendable (TrackingEvent) -> Void) {
        self.onChange = onChange
    }

    /// What ``cancel(_:)`` leaves the cancelling thread to do, after unlocking.
    struct Closing {
        /// The callback, to release (`nil` if the gate was closed already).
        var released: (@Sendable (TrackingEvent) -> Void)?
        /// The waiter to wait on until the last call under way on another thread has returned;
        /// `nil` when there is nothing to wait for (none under way, a cancel from inside a call,
        /// or a second cancel).
        var waiter: TurnWaiter?
    }

    /// A call is about to start on `thread`: the callback to call, or `nil` if the gate is closed.
    mutating func enter(_ thread: UInt) -> (@Sendable (TrackingEvent) -> Void)? {
        guard let onChange else { return nil }
        calling.append(thread)
        return onChange
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
    mutating func cancel(_ thread: UInt) -> Closing {
        guard let released = onChange.take() else { return Closing() }
        // From inside the callback: no wait (the calls under way elsewhere may be waiting for
        // something this thread holds).
        guard !calling.contains(thread), let other = calling.first else { return Closing(released: released) }
        let queue = TurnQueue(name: "track")
        queue.mirrorOwner(other)  // a call that waits for the cancelling thread is then a reported deadlock
        let waiter = TurnWaiter(thread: thread, queue: queue)
        canceller = waiter
        return Closing(released: released, waiter: waiter)
    }
}
