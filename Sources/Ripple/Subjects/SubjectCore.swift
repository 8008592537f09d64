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
@usableFromInline
final class SubjectCore<Output, Failure: Error>: @unchecked Sendable {
    @usableFromInline
    struct State {
        /// Conduits in subscription order; `nil` marks a cancelled one not yet compacted away.
        @usableFromInline var slots: ContiguousArray<SubjectConduit<Output, Failure>?> = []
        @usableFromInline var liveCount = 0
        @usableFromInline var completion: Subscribers.Completion<Failure>?
        /// The current value (``CurrentValueSubject`` only).
        @usableFromInline var current: Output?
        /// Incremented by every send (``CurrentValueSubject`` only): tells a replayed value from a new one.
        @usableFromInline var version: UInt64 = 0
        /// Subscriptions received through `send(subscription:)`.
        @usableFromInline var upstreams: ContiguousArray<any Subscription> = []
        /// Whether the upstreams have been asked for `.unlimited`.
        @usableFromInline var upstreamRequested = false

        @usableFromInline
        init(current: Output?, upstreamRequested: Bool) {
            self.current = current
            self.upstreamRequested = upstreamRequested
        }
    }

    @usableFromInline let lock = Lock()
    /// Guarded by `lock`, and so are the mutable fields of every conduit in `slots`.
    /// (`unchecked`: only touched under the lock, never across a call out.)
    @exclusivity(unchecked) @usableFromInline var state: State
    /// `true` for ``CurrentValueSubject``: new subscribers get the current value on their first demand.
    @usableFromInline let replaysCurrent: Bool

    @inlinable
    init(current: Output?) {
        replaysCurrent = current != nil
        state = State(current: current, upstreamRequested: current != nil)
    }

    // MARK: Subject operations

    @inlinable
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        lock.lock()
        if let completion = state.completion {
            lock.unlock()
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: completion)
            return
        }
        // The closure is created here, where `S` is known, so delivery is specialized end to end.
        let conduit = SubjectConduit(core: self, slot: state.slots.count) { delivery in
            switch delivery {
            case .value(let value): return subscriber.receive(value)
            case .completion(let completion):
                subscriber.receive(completion: completion)
                return .none
            }
        }
        state.slots.append(conduit)
        state.liveCount += 1
        lock.unlock()
        subscriber.receive(subscription: conduit)
    }

    /// Sends `value` to every conduit. `storeAfterCompletion` is `CurrentValueSubject.value`'s setter:
    /// it stores the value even when the subject has completed (and then publishes nothing).
    @inlinable
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
        if state.slots.count == 1, let only = state.slots[0] {
            // One subscriber, the common case: decide its delivery in this same critical section.
            only.offerLocked(value, version: version)
            return
        }
        // Retains the buffer; it is copied only if a subscribe or cancel happens while we deliver.
        let slots = state.slots
        lock.unlock()
        for case let conduit? in slots {
            conduit.offer(value, version: version)
        }
    }

    @inlinable
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

    @inlinable
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
    @inlinable
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
    @inlinable
    func removeLocked(slot: Int) {
        guard slot < state.slots.count, state.slots[slot] != nil else { return }
        state.slots[slot] = nil
        state.liveCount -= 1
        while let last = state.slots.last, last == nil {
            state.slots.removeLast()
        }
        let holes = state.slots.count - state.liveCount
        if holes > 16 && holes > state.liveCount {
            var compacted = ContiguousArray<SubjectConduit<Output, Failure>?>()
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
    @inlinable
    func upstreamsToRequestLocked() -> ContiguousArray<any Subscription> {
        guard !state.upstreamRequested else { return [] }
        state.upstreamRequested = true
        return state.upstreams
    }
}

/// The subscription a subject hands to one subscriber.
///
/// Generic only over the subject's `Output` and `Failure`, so the subject calls it directly and the
/// compiler specializes both together; the subscriber is reached through `deliver`, a closure made
/// where the subscriber's type is known.
@usableFromInline
final class SubjectConduit<Output, Failure: Error>: Subscription, CustomStringConvertible {
    /// What the conduit hands its subscriber.
    @usableFromInline
    enum Delivery {
        case value(Output)
        case completion(Subscribers.Completion<Failure>)
    }

    @usableFromInline
    typealias Deliver = (Delivery) -> Subscribers.Demand

    @usableFromInline let core: SubjectCore<Output, Failure>

    // Everything below is guarded by `core.lock`.
    /// Position in the core's `slots`.
    @exclusivity(unchecked) @usableFromInline var slot: Int
    /// `nil` once terminated, so the subscriber is released (see `release()` for the one exception).
    @exclusivity(unchecked) @usableFromInline var downstream: Deliver?
    @exclusivity(unchecked) @usableFromInline var terminated = false
    @exclusivity(unchecked) @usableFromInline var demand = Subscribers.Demand.none
    /// The thread currently inside `downstream.receive`, or 0.
    @exclusivity(unchecked) @usableFromInline var deliveringThread: UInt = 0
    /// Values another thread accepted (and charged to `demand`) while we were delivering.
    @exclusivity(unchecked) @usableFromInline var backlog: ContiguousArray<Output> = []
    @exclusivity(unchecked) @usableFromInline var backlogHead = 0
    @exclusivity(unchecked) @usableFromInline var backlogCompletion: Subscribers.Completion<Failure>?
    /// CurrentValueSubject: the subscriber has not seen the latest value yet and gets it on demand.
    @exclusivity(unchecked) @usableFromInline var owesCurrent: Bool
    /// CurrentValueSubject: the version last delivered from `request` (an offer at or below it is stale).
    @exclusivity(unchecked) @usableFromInline var replayedVersion: UInt64 = 0

    @inlinable
    init(core: SubjectCore<Output, Failure>, slot: Int, deliver: @escaping Deliver) {
        self.core = core
        self.downstream = deliver
        self.slot = slot
        self.owesCurrent = core.replaysCurrent
    }

    @usableFromInline var description: String { core.replaysCurrent ? "CurrentValueSubject" : "PassthroughSubject" }

    // MARK: Values from the subject

    @inlinable
    func offer(_ value: Output, version: UInt64) {
        core.lock.lock()
        offerLocked(value, version: version)
    }

    /// `offer` with the core's lock already held; unlocks it.
    @inlinable
    func offerLocked(_ value: Output, version: UInt64) {
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
        let more = downstream(.value(value))
        didDeliver(more, nested: outer != 0)
    }

    @inlinable
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
        _ = downstream?(.completion(completion))
    }

    // MARK: Subscription

    @inlinable
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
        let more = downstream(.value(value))
        didDeliver(more, nested: outer != 0)
    }

    @inlinable
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
    @inlinable
    func didDeliver(_ returned: Subscribers.Demand, nested: Bool) {
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
                more = downstream(.value(value))
                continue
            }
            if let completion = backlogCompletion {
                backlogCompletion = nil
                deliveringThread = 0
                let downstream = terminateLocked()
                core.lock.unlock()
                _ = downstream?(.completion(completion))
                return
            }
            if owesCurrent && demand > 0, let downstream {
                let value = takeCurrentLocked()
                core.lock.unlock()
                more = downstream(.value(value))
                continue
            }
            deliveringThread = 0
            core.lock.unlock()
            return
        }
    }

    /// CurrentValueSubject: charges one demand for the current value and marks it delivered.
    @inlinable
    func takeCurrentLocked() -> Output {
        owesCurrent = false
        replayedVersion = core.state.version
        demand -= 1
        // `owesCurrent` is only ever true for a CurrentValueSubject, whose `current` is never nil.
        return core.state.current!
    }

    /// Marks the conduit terminated and removes it from the subject. Returns the subscriber for the
    /// caller to notify or release outside the lock — unless another thread is delivering to it right
    /// now, in which case that thread keeps using it and releases it in `didDeliver`.
    @inlinable
    func terminateLocked() -> Deliver? {
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
