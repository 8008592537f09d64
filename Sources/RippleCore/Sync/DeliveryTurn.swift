/// Who may call one downstream right now: the serial-delivery state machine every push path in
/// Ripple shares (a subject's subscriber, the downstream of merge, combineLatest, zip,
/// switchToLatest, buffer, the until-output operators and `receive(on:)`).
///
/// The contract it implements (see `Documentation/Engine.md`):
/// - A thread that finds the turn free takes it and calls the downstream itself, on its own thread.
/// - A thread that finds it held *by itself* (a send from inside a delivery) calls at once, nested,
///   as Combine does; the outermost call gives the turn back.
/// - A thread that finds it held by another thread queues up and sleeps; the turn is handed to the
///   waiters one by one in arrival order, so no sender starves and none runs another's values.
///
/// A pure value: its owner (a subject's conduit, which keeps it under the subject's lock; an
/// operator, through ``TurnStorage``; a `@Published` box or an `observe` loop) applies a transition
/// under its lock and has the one turn runner perform the returned action:
/// ``TurnRunner/enterLocked(_:keeping:resumed:giveBack:)`` (``Entry/wait(_:)`` parks the thread)
/// and ``TurnRunner/leaveLocked(_:pinnedBy:)`` (``Exit/handOff(_:)`` wakes the next waiter).
@usableFromInline
struct DeliveryTurn {
    /// The thread that holds the turn, or 0.
    @usableFromInline var owner: UInt = 0
    /// The waiters, created on first contention (and kept: a downstream contended once is likely to
    /// be contended again).
    @usableFromInline var queue: TurnQueue?

    /// What a thread that wants to call the downstream must do.
    @usableFromInline
    enum Entry {
        /// Call now; `nested` when this thread already holds the turn further up its stack (the
        /// nested call must not give the turn back).
        case call(nested: Bool)
        /// Sleep until the turn is handed over, then call (the turn is then this thread's).
        case wait(TurnWaiter)
    }

    /// What the thread giving the turn back must do.
    @usableFromInline
    enum Exit: Equatable {
        /// Nothing: nobody waits; the turn is free.
        case idle
        /// Wake this waiter: the turn is already its own.
        case handOff(TurnWaiter)

        @usableFromInline
        static func == (lhs: Exit, rhs: Exit) -> Bool {
            switch (lhs, rhs) {
            case (.idle, .idle): true
            case (.handOff(let a), .handOff(let b)): a === b
            default: false
            }
        }
    }

    @inlinable
    init() {}

    /// Whether a thread holds the turn.
    @inlinable
    var isHeld: Bool { owner != 0 }

    /// `thread` asks for the turn. `name` names the downstream in a deadlock report.
    @inlinable @inline(__always)
    mutating func enter(_ thread: UInt, name: @autoclosure () -> String) -> Entry {
        if owner == 0 {
            owner = thread
            if let queue { queue.mirrorOwner(thread) }
            return .call(nested: false)
        }
        if owner == thread {
            return .call(nested: true)
        }
        return .wait(enqueue(thread, name: name()))
    }

    @usableFromInline @inline(never)
    mutating func enqueue(_ thread: UInt, name: String) -> TurnWaiter {
        let queue = self.queue ?? TurnQueue(name: name)
        self.queue = queue
        let waiter = TurnWaiter(thread: thread, queue: queue)
        queue.waiters.append(waiter)
        queue.mirrorOwner(owner)
        return waiter
    }

    /// The holder gives the turn back (the outermost call on its thread has returned).
    @inlinable @inline(__always)
    mutating func leave() -> Exit {
        guard let queue else {
            owner = 0
            return .idle
        }
        guard queue.waiters.isEmpty else { return handOff(queue) }
        owner = 0
        queue.mirrorOwner(0)
        return .idle
    }

    /// ``leave()`` with threads waiting: the first of them gets the turn. Out of line: only under
    /// contention.
    @usableFromInline @inline(never)
    mutating func handOff(_ queue: TurnQueue) -> Exit {
        guard let next = queue.waiters.popFirst() else {
            owner = 0
            queue.mirrorOwner(0)
            return .idle
        }
        owner = next.thread
        queue.mirrorOwner(next.thread)
        return .handOff(next)
    }

    /// Whether threads wait for the turn.
    @inlinable
    var hasWaiters: Bool { queue.map { !$0.waiters.isEmpty } ?? false }
}
