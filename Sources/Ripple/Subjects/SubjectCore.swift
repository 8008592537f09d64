import Synchronization

/// The machinery shared by ``PassthroughSubject``, ``CurrentValueSubject``,
/// ``ObservableObjectPublisher`` and `@Published`'s `$property` publisher.
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
///
/// Layout for speed (see `Documentation/Locking.md`): everything generic is specialized in client
/// code through `@inlinable`; what is reached through dynamic dispatch (cancel, through
/// ``AnyCancellable``) touches only non-generic state, so it needs no runtime metadata lookups.
@usableFromInline
final class SubjectCore<Output, Failure: Error>: @unchecked Sendable {
    @usableFromInline
    struct State {
        @usableFromInline var completion: Subscribers.Completion<Failure>?
        /// The current value (``CurrentValueSubject`` only).
        @usableFromInline var current: Output?
        /// Incremented by every send (``CurrentValueSubject`` only): tells a replayed value from a new one.
        @usableFromInline var version: UInt64 = 0

        @inlinable
        init(current: Output?) {
            self.current = current
        }
    }

    @usableFromInline let lock = Lock()
    /// Guarded by `lock`. (`unchecked`: only touched under the lock, never across a call out.)
    @exclusivity(unchecked) @usableFromInline var state: State
    /// The subscribers and upstreams; guarded by `lock`, and so are the mutable fields of every
    /// conduit in it. Not generic, so cancelling needs no generic metadata.
    @exclusivity(unchecked) @usableFromInline var registry: SubjectRegistry
    /// `true` for ``CurrentValueSubject``: new subscribers get the current value on their first demand.
    @usableFromInline let replaysCurrent: Bool

    @inlinable
    init(current: Output?) {
        replaysCurrent = current != nil
        state = State(current: current)
        registry = SubjectRegistry(upstreamRequested: current != nil)
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
        let conduit = SubjectConduit(core: self, slot: registry.slots.count) { delivery in
            switch delivery {
            case .value(let value): return subscriber.receive(value)
            case .completion(let completion):
                subscriber.receive(completion: completion)
                return .none
            }
        }
        registry.append(conduit)
        lock.unlock()
        subscriber.receive(subscription: conduit)
    }

    /// `sink` on a subject-backed publisher: the closures are attached to a conduit directly, with
    /// unlimited demand. Observably the same as subscribing a ``Subscribers/Sink`` (values until
    /// completion, closures released on completion or cancel, nothing after cancel), minus one
    /// object, one lock and one retain per value.
    @inlinable
    func sink(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        attachSink(onCompletion: receiveCompletion) { delivery in
            switch delivery {
            case .value(let value):
                receiveValue(value)
            case .completion(let completion):
                receiveCompletion(completion)
            }
            return .none
        }
    }

    /// `sink(receiveValue:)`: the same, without capturing a completion closure that does nothing
    /// (a smaller closure context per subscriber).
    @inlinable
    func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        attachSink(onCompletion: nil) { delivery in
            if case .value(let value) = delivery {
                receiveValue(value)
            }
            return .none
        }
    }

    @inlinable
    func attachSink(
        onCompletion: ((Subscribers.Completion<Failure>) -> Void)?,
        deliver: @escaping SubjectConduit<Output, Failure>.Deliver
    ) -> AnyCancellable {
        lock.lock()
        if let completion = state.completion {
            lock.unlock()
            onCompletion?(completion)
            return AnyCancellable(object: EmptySubscription.shared)
        }
        let conduit = SubjectConduit(core: self, slot: registry.slots.count, deliver: deliver)
        registry.append(conduit)
        lock.unlock()
        conduit.request(.unlimited)
        return AnyCancellable(conduit: conduit)
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
        if registry.slots.count == 1, let only = registry.slots[0] {
            // One subscriber, the common case: decide its delivery in this same critical section.
            unsafeDowncast(only, to: SubjectConduit<Output, Failure>.self).offerLocked(value, version: version)
            return
        }
        // Retains the buffer; it is copied only if a subscribe or cancel happens while we deliver.
        let slots = registry.slots
        lock.unlock()
        for case let conduit? in slots {
            unsafeDowncast(conduit, to: SubjectConduit<Output, Failure>.self).offer(value, version: version)
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
        let slots = registry.removeAll()
        lock.unlock()
        for case let conduit? in slots {
            unsafeDowncast(conduit, to: SubjectConduit<Output, Failure>.self).finish(completion)
        }
    }

    @inlinable
    func send(subscription: any Subscription) {
        lock.lock()
        registry.upstreams.append(subscription)
        let requestNow = registry.upstreamRequested
        lock.unlock()
        if requestNow {
            subscription.request(.unlimited)
        }
    }

    /// Cancels every upstream subscription (the public subject's `deinit`).
    @inlinable
    func cancelUpstreams() {
        lock.lock()
        let upstreams = registry.upstreams
        registry.upstreams = []
        lock.unlock()
        for upstream in upstreams {
            upstream.cancel()
        }
    }
}

/// A subject's subscribers, in subscription order, and its upstream subscriptions.
@usableFromInline
struct SubjectRegistry {
    /// `nil` marks a cancelled conduit not yet compacted away.
    @usableFromInline var slots: ContiguousArray<ConduitBase?> = []
    @usableFromInline var liveCount = 0
    /// Subscriptions received through `send(subscription:)`.
    @usableFromInline var upstreams: ContiguousArray<any Subscription> = []
    /// Whether the upstreams have been asked for `.unlimited` (PassthroughSubject does so once a
    /// subscriber has demand; CurrentValueSubject at once).
    @usableFromInline var upstreamRequested: Bool

    @inlinable
    init(upstreamRequested: Bool) {
        self.upstreamRequested = upstreamRequested
    }

    @inlinable
    mutating func append(_ conduit: ConduitBase) {
        slots.append(conduit)
        liveCount += 1
    }

    @inlinable
    mutating func removeAll() -> ContiguousArray<ConduitBase?> {
        let all = slots
        slots = []
        liveCount = 0
        return all
    }

    /// Removes the conduit at `slot`, keeping order; amortised O(1).
    @usableFromInline
    mutating func remove(slot: Int) {
        guard slot < slots.count, slots[slot] != nil else { return }
        slots[slot] = nil
        liveCount -= 1
        while let last = slots.last, last == nil {
            slots.removeLast()
        }
        let holes = slots.count - liveCount
        if holes > 16 && holes > liveCount {
            var compacted = ContiguousArray<ConduitBase?>()
            compacted.reserveCapacity(liveCount)
            for case let conduit? in slots {
                conduit.slot = compacted.count
                compacted.append(conduit)
            }
            slots = compacted
        }
    }

    /// The upstreams to ask for `.unlimited`, the first time any subscriber has demand.
    @inlinable
    mutating func upstreamsToRequest() -> ContiguousArray<any Subscription> {
        guard !upstreamRequested else { return [] }
        upstreamRequested = true
        return upstreams
    }
}

/// The part of a conduit that is not generic: its position in the registry and cancellation, so
/// ``AnyCancellable`` can cancel it with a plain virtual call.
@usableFromInline
class ConduitBase: @unchecked Sendable {
    /// Position in the registry's `slots`; guarded by the subject's lock.
    @exclusivity(unchecked) @usableFromInline var slot: Int

    @inlinable
    init(slot: Int) {
        self.slot = slot
    }

    /// Overridden by ``SubjectConduit``, the only subclass.
    @usableFromInline
    func cancel() {}
}

/// Values that another thread accepted for a conduit while it was delivering (allocated only under
/// contention).
@usableFromInline
final class ConduitBacklog<Output, Failure: Error> {
    @usableFromInline var values: ContiguousArray<Output> = []
    @usableFromInline var head = 0
    @usableFromInline var completion: Subscribers.Completion<Failure>?

    @inlinable
    init() {}
}

/// The subscription a subject hands to one subscriber.
///
/// Generic only over the subject's `Output` and `Failure`, so the subject calls it directly and the
/// compiler specializes both together; the subscriber is reached through `deliver`, a closure made
/// where the subscriber's type is known.
@usableFromInline
final class SubjectConduit<Output, Failure: Error>: ConduitBase, Subscription, CustomStringConvertible,
    @unchecked Sendable
{
    /// What the conduit hands its subscriber.
    @usableFromInline
    enum Delivery {
        case value(Output)
        case completion(Subscribers.Completion<Failure>)
    }

    @usableFromInline
    typealias Deliver = (Delivery) -> Subscribers.Demand

    @usableFromInline let core: SubjectCore<Output, Failure>

    // Everything below is guarded by `core.lock`. (Declared widest first: Swift lays class fields out
    // in declaration order, and grouping the two flags keeps a conduit in a smaller malloc class.)
    /// `nil` once terminated, so the subscriber is released (see `terminateLocked()` for the one exception).
    @exclusivity(unchecked) @usableFromInline var downstream: Deliver?
    @exclusivity(unchecked) @usableFromInline var demand = Subscribers.Demand.none
    /// The thread currently inside `downstream`, or 0.
    @exclusivity(unchecked) @usableFromInline var deliveringThread: UInt = 0
    /// What other threads left for the delivering thread (`nil` unless there was contention).
    @exclusivity(unchecked) @usableFromInline var backlog: ConduitBacklog<Output, Failure>?
    /// CurrentValueSubject: the version last delivered from `request` (an offer at or below it is stale).
    @exclusivity(unchecked) @usableFromInline var replayedVersion: UInt64 = 0
    @exclusivity(unchecked) @usableFromInline var terminated = false
    /// CurrentValueSubject: the subscriber has not seen the latest value yet and gets it on demand.
    @exclusivity(unchecked) @usableFromInline var owesCurrent: Bool

    @inlinable
    init(core: SubjectCore<Output, Failure>, slot: Int, deliver: @escaping Deliver) {
        self.core = core
        self.downstream = deliver
        self.owesCurrent = core.replaysCurrent
        super.init(slot: slot)
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
            let backlog = self.backlog ?? ConduitBacklog()
            self.backlog = backlog
            backlog.values.append(value)
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
            // Another thread is inside `downstream`; it delivers the backlog and then this completion.
            let backlog = self.backlog ?? ConduitBacklog()
            self.backlog = backlog
            backlog.completion = completion
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
        let upstreams = core.replaysCurrent ? [] : core.registry.upstreamsToRequest()
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

    /// Cancels delivery and releases the subscriber. Reached through ``AnyCancellable`` by a virtual
    /// call into unspecialized code, so it touches nothing whose layout depends on `Output`.
    @usableFromInline
    override func cancel() {
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

    /// Called after a delivery returns: adds the demand it returned, then, unless this was a nested
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
            if let backlog, let downstream {
                if backlog.head < backlog.values.count {
                    let value = backlog.values[backlog.head]
                    backlog.head += 1
                    if backlog.head == backlog.values.count {
                        backlog.values.removeAll(keepingCapacity: true)
                        backlog.head = 0
                    }
                    core.lock.unlock()
                    more = downstream(.value(value))
                    continue
                }
                if let completion = backlog.completion {
                    backlog.completion = nil
                    deliveringThread = 0
                    let downstream = terminateLocked()
                    core.lock.unlock()
                    _ = downstream?(.completion(completion))
                    return
                }
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
        backlog = nil
        core.registry.remove(slot: slot)
        if deliveringThread != 0 && deliveringThread != currentThreadID() {
            return nil
        }
        let released = downstream
        downstream = nil
        return released
    }
}
