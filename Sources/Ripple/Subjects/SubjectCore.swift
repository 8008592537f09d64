/// The machinery shared by ``PassthroughSubject`` and ``CurrentValueSubject``.
///
/// One lock guards the subject's state *and* the state of every conduit (one conduit per
/// subscriber), so a send takes short critical sections on one cache line and no per-subscriber lock.
///
/// Delivery rules, each tested in `SubjectReentrancyTests` and `SubjectConcurrencyTests`:
/// - Calls to one subscriber never overlap. If thread B offers a value while thread A is inside that
///   subscriber's `receive`, B charges the demand and leaves the value in the conduit's backlog; A
///   delivers it as soon as its call returns. No lock is held while user code runs.
/// - A send made *from inside* `receive` on the same thread is delivered at once, nested, as in Combine.
/// - Subscribers are kept in subscription order; cancelling leaves a hole that is trimmed from the end
///   or compacted once holes outnumber live subscribers, so subscribe and cancel are amortised O(1).
final class SubjectCore<Output, Failure: Error>: @unchecked Sendable {
    struct State {
        /// Conduits in subscription order; `nil` marks a cancelled one not yet compacted away.
        var slots: ContiguousArray<(any SubjectConduit<Output, Failure>)?> = []
        var liveCount = 0
        var completion: Subscribers.Completion<Failure>?
        /// The current value (``CurrentValueSubject`` only).
        var current: Output?
        /// Incremented by every send (``CurrentValueSubject`` only): tells a replayed value from a new one.
        var version: UInt64 = 0
        /// Subscriptions received through `send(subscription:)`.
        var upstreams: ContiguousArray<any Subscription> = []
        /// Whether the upstreams have been asked for `.unlimited`.
        var upstreamRequested = false
    }

    let lock = Lock()
    /// Guarded by `lock`, and so are the mutable fields of every conduit in `slots`.
    var state: State
    /// `true` for ``CurrentValueSubject``: new subscribers get the current value on their first demand.
    let replaysCurrent: Bool

    init(current: Output?) {
        replaysCurrent = current != nil
        state = State(current: current, upstreamRequested: current != nil)
    }

    // MARK: Subject operations

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        lock.lock()
        if let completion = state.completion {
            lock.unlock()
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: completion)
            return
        }
        let conduit = Conduit(core: self, downstream: subscriber, slot: state.slots.count)
        state.slots.append(conduit)
        state.liveCount += 1
        lock.unlock()
        subscriber.receive(subscription: conduit)
    }

    /// Sends `value` to every conduit. `storeAfterCompletion` is `CurrentValueSubject.value`'s setter:
    /// it stores the value even when the subject has completed (and then publishes nothing).
    func send(_ value: Output, storeAfterCompletion: Bool = false) {
        lock.lock()
        guard state.completion == nil else {
            if storeAfterCompletion { state.current = value }
            lock.unlock()
            return
        }
        if replaysCurrent {
            state.current = value
            state.version &+= 1
        }
        let version = state.version
        // Retains the buffer; it is copied only if a subscribe or cancel happens while we deliver.
        let slots = state.slots
        lock.unlock()
        for case let conduit? in slots {
            conduit.offer(value, version: version)
        }
    }

    func send(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard state.completion == nil else {
            lock.unlock()
            return
        }
        state.completion = completion
        let slots = state.slots
        state.slots = []
        state.liveCount = 0
        lock.unlock()
        for case let conduit? in slots {
            conduit.finish(completion)
        }
    }

    func send(subscription: any Subscription) {
        lock.lock()
        state.upstreams.append(subscription)
        let requestNow = state.upstreamRequested
        lock.unlock()
        if requestNow {
            subscription.request(.unlimited)
        }
    }

    /// Cancels every upstream subscription (the public subject's `deinit`).
    func cancelUpstreams() {
        lock.lock()
        let upstreams = state.upstreams
        state.upstreams = []
        lock.unlock()
        for upstream in upstreams {
            upstream.cancel()
        }
    }

    // MARK: Called by conduits with `lock` held

    /// Removes the conduit at `slot`; keeps order; amortised O(1).
    func removeLocked(slot: Int) {
        guard slot < state.slots.count, state.slots[slot] != nil else { return }
        state.slots[slot] = nil
        state.liveCount -= 1
        while let last = state.slots.last, last == nil {
            state.slots.removeLast()
        }
        let holes = state.slots.count - state.liveCount
        if holes > 16 && holes > state.liveCount {
            var compacted = ContiguousArray<(any SubjectConduit<Output, Failure>)?>()
            compacted.reserveCapacity(state.liveCount)
            for case let conduit? in state.slots {
                conduit.slot = compacted.count
                compacted.append(conduit)
            }
            state.slots = compacted
        }
    }

    /// Called with `lock` held by a conduit that received its first demand (PassthroughSubject asks
    /// its upstreams for values only once somebody downstream wants them).
    func upstreamsToRequestLocked() -> ContiguousArray<any Subscription> {
        guard !state.upstreamRequested else { return [] }
        state.upstreamRequested = true
        return state.upstreams
    }
}

/// What a ``SubjectCore`` knows about a subscriber's conduit. Class-bound, so each slot is two words.
protocol SubjectConduit<Output, Failure>: AnyObject {
    associatedtype Output
    associatedtype Failure: Error
    /// Position in the core's `slots`; guarded by the core's lock.
    var slot: Int { get set }
    func offer(_ value: Output, version: UInt64)
    func finish(_ completion: Subscribers.Completion<Failure>)
}

/// The subscription a subject hands to one subscriber.
final class Conduit<Downstream: Subscriber>: SubjectConduit, Subscription, CustomStringConvertible {
    typealias Output = Downstream.Input
    typealias Failure = Downstream.Failure

    private let core: SubjectCore<Output, Failure>

    // Everything below is guarded by `core.lock`.
    var slot: Int
    /// `nil` once terminated, so the subscriber is released (see `release()` for the one exception).
    private var downstream: Downstream?
    private var terminated = false
    private var demand = Subscribers.Demand.none
    /// The thread currently inside `downstream.receive`, or 0.
    private var deliveringThread: UInt = 0
    /// Values another thread accepted (and charged to `demand`) while we were delivering.
    private var backlog: ContiguousArray<Output> = []
    private var backlogHead = 0
    private var backlogCompletion: Subscribers.Completion<Failure>?
    /// CurrentValueSubject: the subscriber has not seen the latest value yet and gets it on demand.
    private var owesCurrent: Bool
    /// CurrentValueSubject: the version last delivered from `request` (an offer at or below it is stale).
    private var replayedVersion: UInt64 = 0

    init(core: SubjectCore<Output, Failure>, downstream: Downstream, slot: Int) {
        self.core = core
        self.downstream = downstream
        self.slot = slot
        self.owesCurrent = core.replaysCurrent
    }

    var description: String { core.replaysCurrent ? "CurrentValueSubject" : "PassthroughSubject" }

    // MARK: Values from the subject

    func offer(_ value: Output, version: UInt64) {
        core.lock.lock()
        guard !terminated, let downstream else {
            core.lock.unlock()
            return
        }
        if core.replaysCurrent && version <= replayedVersion {
            // Already delivered as the current value by `request`.
            core.lock.unlock()
            return
        }
        guard demand > 0 else {
            if core.replaysCurrent { owesCurrent = true }
            core.lock.unlock()
            return
        }
        demand -= 1
        let me = currentThreadID()
        let outer = deliveringThread
        if outer != 0 && outer != me {
            backlog.append(value)
            core.lock.unlock()
            return
        }
        if core.replaysCurrent { owesCurrent = false }
        deliveringThread = me
        core.lock.unlock()
        let more = downstream.receive(value)
        didDeliver(more, nested: outer != 0)
    }

    func finish(_ completion: Subscribers.Completion<Failure>) {
        core.lock.lock()
        guard !terminated else {
            core.lock.unlock()
            return
        }
        let delivering = deliveringThread
        if delivering != 0 && delivering != currentThreadID() {
            // Another thread is inside `receive`; it delivers the backlog and then this completion.
            backlogCompletion = completion
            core.lock.unlock()
            return
        }
        let downstream = terminateLocked()
        core.lock.unlock()
        downstream?.receive(completion: completion)
    }

    // MARK: Subscription

    func request(_ demand: Subscribers.Demand) {
        precondition(demand > 0, "\(description): demand must be greater than zero (got \(demand))")
        core.lock.lock()
        guard !terminated else {
            core.lock.unlock()
            return
        }
        self.demand += demand
        let upstreams = core.replaysCurrent ? [] : core.upstreamsToRequestLocked()
        let me = currentThreadID()
        let outer = deliveringThread
        guard owesCurrent, outer == 0 || outer == me, let downstream else {
            // Either nothing is owed, or the delivering thread will deliver it when its call returns.
            core.lock.unlock()
            for upstream in upstreams { upstream.request(.unlimited) }
            return
        }
        let value = takeCurrentLocked()
        deliveringThread = me
        core.lock.unlock()
        let more = downstream.receive(value)
        didDeliver(more, nested: outer != 0)
    }

    func cancel() {
        core.lock.lock()
        guard !terminated else {
            core.lock.unlock()
            return
        }
        let downstream = terminateLocked()
        core.lock.unlock()
        // Released here, outside the lock: its deinit may run user code.
        _ = downstream
    }

    // MARK: Delivery loop

    /// Called after a `receive` returns: adds the demand it returned, then, unless this was a nested
    /// call, delivers whatever other threads left behind, and finally gives up the delivering role.
    private func didDeliver(_ returned: Subscribers.Demand, nested: Bool) {
        var more = returned
        while true {
            core.lock.lock()
            if terminated {
                // Cancelled while delivering: the subscriber was kept for us; release it now.
                if !nested { deliveringThread = 0 }
                let released = downstream
                downstream = nil
                core.lock.unlock()
                _ = released
                return
            }
            demand += more
            if nested {
                core.lock.unlock()
                return
            }
            if backlogHead < backlog.count, let downstream {
                let value = backlog[backlogHead]
                backlogHead += 1
                if backlogHead == backlog.count {
                    backlog.removeAll(keepingCapacity: true)
                    backlogHead = 0
                }
                core.lock.unlock()
                more = downstream.receive(value)
                continue
            }
            if let completion = backlogCompletion {
                backlogCompletion = nil
                deliveringThread = 0
                let downstream = terminateLocked()
                core.lock.unlock()
                downstream?.receive(completion: completion)
                return
            }
            if owesCurrent && demand > 0, let downstream {
                let value = takeCurrentLocked()
                core.lock.unlock()
                more = downstream.receive(value)
                continue
            }
            deliveringThread = 0
            core.lock.unlock()
            return
        }
    }

    /// CurrentValueSubject: charges one demand for the current value and marks it delivered.
    private func takeCurrentLocked() -> Output {
        owesCurrent = false
        replayedVersion = core.state.version
        demand -= 1
        // `owesCurrent` is only ever true for a CurrentValueSubject, whose `current` is never nil.
        return core.state.current!
    }

    /// Marks the conduit terminated and removes it from the subject. Returns the subscriber for the
    /// caller to notify or release outside the lock — unless another thread is delivering to it right
    /// now, in which case that thread keeps using it and releases it in `didDeliver`.
    private func terminateLocked() -> Downstream? {
        terminated = true
        backlog = []
        backlogHead = 0
        core.removeLocked(slot: slot)
        if deliveringThread != 0 && deliveringThread != currentThreadID() {
            return nil
        }
        let released = downstream
        downstream = nil
        return released
    }
}
