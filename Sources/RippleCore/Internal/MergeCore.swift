/// One upstream of a ``MergeCore`` .
@usableFromInline
struct MergeChildState {
    @usableFromInline var subscription: (any Subscription)?
    /// Has an outstanding request (`.max(1)`, or `.unlimited`).
    @usableFromInline var requested = false
    /// Was asked for `.unlimited`: never needs asking again.
    @usableFromInline var unlimited = false
    @usableFromInline var finished = false
    @usableFromInline var generation = 0

    @inlinable
    init(generation: Int = 0) { self.generation = generation }
}

/// What ``MergeCore`` decides under its lock. Kept free of generic types, so that even
/// unspecialized code reads it at fixed offsets.
@usableFromInline
struct MergeState {
    /// `true` once the downstream is gone (cancelled or completed).
    @usableFromInline var terminated = false
    @usableFromInline var demand = Subscribers.Demand.none
    @usableFromInline var children: [MergeChildState]
    /// Slots of finished children, for reuse.
    @usableFromInline var free: [Int] = []
    /// Children not yet finished.
    @usableFromInline var active: Int
    /// flatMap: the drain is asking a child for its next element (while holding the turn); an
    /// element that child sends from inside that request waits in the queue, as in Combine.
    @usableFromInline var askingChild = false
    /// flatMap's upstream of publishers; `.terminal` when there is none or it has finished.
    @usableFromInline var outer = UpstreamStatus.terminal

    @inlinable
    init(children: [MergeChildState], active: Int) {
        self.children = children
        self.active = active
    }
}

/// The subscription behind `merge`, `MergeMany` and `flatMap`: upstreams with one output type,
/// delivered to one downstream one event at a time.
///
/// - Children: a fixed set (merge), or added while an outer upstream runs (flatMap, which asks the
///   outer upstream for `maxPublishers` and for one more each time a child finishes). Finished
///   children's slots are reused; a generation number keeps a late event from an old child out.
/// - Demand: with unlimited downstream demand every child is asked for `.unlimited`; otherwise each
///   child has at most one element outstanding (`.max(1)`), so at most one value per child waits
///   here while the downstream has no demand. A merge asks a child only once there is demand;
///   flatMap, as Combine does, asks each new child for `.max(1)` at once and again after each of
///   its elements is delivered, demand or not.
/// - Delivery follows the engine's contract (``DeliveryTurn``): a value that arrives while there is
///   demand is delivered on the thread that sent it; a thread that finds another one delivering
///   waits its turn (arrival order) and then delivers its own value; a send from inside the
///   downstream's `receive` is delivered nested. Values that arrive without demand wait in a queue
///   and are delivered, in arrival order, by the thread that brings the demand: a request from
///   another thread adds its demand only once it has the turn, so the thread inside the downstream
///   does not deliver them for it.
/// - It finishes when the outer upstream (if any) and every child have finished and nothing waits;
///   the first failure cancels everything else and is delivered by the thread that brought it, in
///   its turn.
///
/// Inlinable, so it is specialized for the concrete downstream in the code that subscribes
/// (unspecialized, every event paid for generic metadata lookups: ~6,000 instructions a value).
@usableFromInline
final class MergeCore<Downstream: Subscriber>: TurnStorage<MergeState>, Subscription, CustomStringConvertible {
    @usableFromInline let name: String
    /// Guarded by `lock`, like `state`; `nil` once terminated. (The lock, the state and the
    /// delivery turn in it are ``TurnStorage``'s.)
    @usableFromInline @exclusivity(unchecked) var subscriber: Downstream?
    /// Values that arrived without demand, in arrival order. Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) var queue = FIFO<Downstream.Input>()
    /// flatMap: the child (index, generation) each queued value came from, in step with `queue`.
    /// Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) var queuedFrom = FIFO<(Int, Int)>()
    /// The first failure, delivered by the drain. Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) var failure: Downstream.Failure?
    /// flatMap with a bounded `maxPublishers`: ask the outer upstream for one more per finished child.
    @usableFromInline let refillsOuter: Bool
    /// flatMap: a new child is asked for `.max(1)` as soon as it is subscribed, even while the
    /// downstream has no demand (Combine's rule; its value then waits here, and a child that
    /// finishes frees its place for the next publisher).
    @usableFromInline let asksNewChildren: Bool
    /// flatMap traps on a request for `.none`; merge asks for nothing (Combine's rules: OpenCombine
    /// `FlatMapTests` and `MergeTests.testNoDemandOnSubscriptionNoCrashes`, recorded against it).
    @usableFromInline let trapsOnZeroDemand: Bool

    /// A merge of `count` children, subscribed with ``subscribe(_:at:)``.
    @inlinable
    init(downstream: Downstream, count: Int, name: String) {
        subscriber = downstream
        self.name = name
        refillsOuter = false
        asksNewChildren = false
        trapsOnZeroDemand = false
        super.init(state: MergeState(children: Array(repeating: MergeChildState(), count: count), active: count))
    }

    /// A flatMap: children are added as the outer upstream publishes them.
    @inlinable
    init(downstream: Downstream, outerIsBounded: Bool, name: String) {
        subscriber = downstream
        self.name = name
        refillsOuter = outerIsBounded
        asksNewChildren = true
        trapsOnZeroDemand = true
        var initial = MergeState(children: [], active: 0)
        initial.outer = .awaitingSubscription
        super.init(state: initial)
    }

    @usableFromInline var description: String { name }

    /// Sends this subscription downstream (and, for a merge of nothing, finishes).
    @inlinable
    func start() {
        let downstream = lock.withLock { subscriber }
        downstream?.receive(subscription: self)
        lock.lock()
        guard !state.terminated else {
            lock.unlock()
            return
        }
        takeTurnThenDrainLocked()
    }

    @inlinable
    func subscribe<P: Publisher>(_ publisher: P, at index: Int)
    where P.Output == Downstream.Input, P.Failure == Downstream.Failure {
        guard lock.withLock({ !state.terminated }) else { return }
        publisher.receive(subscriber: Child(core: self, index: index, generation: 0))
    }

    // MARK: The outer upstream (flatMap)

    /// Takes the outer subscription; returns `false` if it must be cancelled.
    @inlinable
    func outerReceive(subscription: any Subscription) -> Bool {
        lock.withLock {
            guard !state.terminated, case .awaitingSubscription = state.outer else { return false }
            state.outer = .subscribed(subscription)
            return true
        }
    }

    /// Subscribes a new child for a publisher the outer upstream produced.
    @inlinable
    func addChild<P: Publisher>(_ publisher: P) where P.Output == Downstream.Input, P.Failure == Downstream.Failure {
        lock.lock()
        guard !state.terminated, failure == nil else {
            lock.unlock()
            return
        }
        let index: Int
        if let reused = state.free.popLast() {
            index = reused
            state.children[index] = MergeChildState(generation: state.children[index].generation + 1)
        } else {
            index = state.children.count
            state.children.append(MergeChildState())
        }
        state.active += 1
        let generation = state.children[index].generation
        lock.unlock()
        publisher.receive(subscriber: Child(core: self, index: index, generation: generation))
    }

    @inlinable
    func outerReceive(completion: Subscribers.Completion<Downstream.Failure>) {
        lock.lock()
        guard !state.terminated, !state.outer.isTerminal else {
            lock.unlock()
            return
        }
        state.outer = .terminal
        if case .failure(let error) = completion, failure == nil {
            failure = error
            if failsNowWhileAskingLocked(error) { return }
        }
        takeTurnThenDrainLocked()
    }

    /// flatMap: a failure that arrives on the thread that is asking a child for its next element
    /// (from inside that request: the child finished, its refill reached the outer upstream, and
    /// that failed) is delivered at once, as Combine does — not after the request returns. What
    /// waits in the queue is dropped, as a failure always drops it. Called with `lock` held;
    /// returns `true` (unlocked) when it delivered.
    @inlinable
    func failsNowWhileAskingLocked(_ error: Downstream.Failure) -> Bool {
        guard state.askingChild, turn.owner == currentThreadID(), let downstream = subscriber else { return false }
        // The drain that is asking holds the turn and gives it back when it finds the downstream
        // gone; this call only detaches the downstream and completes it.
        let (subscriptions, dropped) = terminateLocked()
        lock.unlock()
        for subscription in subscriptions {
            subscription.cancel()
        }
        downstream.receive(completion: .failure(error))
        withExtendedLifetime(dropped) {}
        return true
    }

    // MARK: Downstream side

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        require(demand > 0 || !trapsOnZeroDemand, "\(name): demand must be greater than zero (got \(demand))")
        guard demand > 0 else { return }
        lock.lock()
        guard !state.terminated else {
            lock.unlock()
            return
        }
        // The demand counts from this thread's turn on, as in switchToLatest and buffer: the
        // thread that brings it delivers the queued values it allows (a thread inside the
        // downstream on another thread does not deliver them for it).
        takeTurnThenDrainLocked { if !state.terminated { state.demand += demand } }
    }

    @inlinable
    func cancel() {
        lock.lock()
        let released = subscriber
        let (subscriptions, dropped) = terminateLocked()
        lock.unlock()
        for subscription in subscriptions {
            subscription.cancel()
        }
        withExtendedLifetime((released, dropped)) {}
    }

    // MARK: Children

    @inlinable
    func isCurrent(_ index: Int, _ generation: Int) -> Bool {
        index < state.children.count && state.children[index].generation == generation
            && !state.children[index].finished
    }

    @inlinable
    func childReceive(subscription: any Subscription, index: Int, generation: Int) {
        lock.lock()
        guard !state.terminated, isCurrent(index, generation), state.children[index].subscription == nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state.children[index].subscription = subscription
        let ask = state.demand > 0 || asksNewChildren
        let demand: Subscribers.Demand = state.demand == .unlimited ? .unlimited : .max(1)
        if ask {
            state.children[index].requested = true
            state.children[index].unlimited = demand == .unlimited
        }
        lock.unlock()
        if ask { subscription.request(demand) }
    }

    @inlinable
    func childReceive(_ input: Downstream.Input, index: Int, generation: Int) -> Subscribers.Demand {
        lock.lock()
        guard subscriber != nil, isCurrent(index, generation) else {
            lock.unlock()
            return .none
        }
        let unlimited = state.children[index].unlimited
        guard state.demand > 0, queue.isEmpty, !(state.askingChild && turn.owner == currentThreadID()) else {
            // No demand (or older values still wait for it): the value waits for a request.
            queue.append(input)
            if asksNewChildren { queuedFrom.append((index, generation)) }
            if !unlimited { state.children[index].requested = false }
            lock.unlock()
            return .none
        }
        state.demand -= 1
        guard let (more, nested) = callInTurnLocked(name: name, to: { subscriber }, { $0.receive(input) }) else {
            // Cancelled or completed while this thread waited.
            return .none
        }
        state.demand += more
        if nested {
            // The outermost call on this thread drains and asks the children for more (flatMap:
            // this child is asked again at once, as below).
            if !unlimited, isCurrent(index, generation) {
                let again = asksNewChildren && state.demand != .unlimited && state.children[index].subscription != nil
                state.children[index].requested = again
                lock.unlock()
                return again ? .max(1) : .none
            }
            lock.unlock()
            return .none
        }
        guard isCurrent(index, generation), !unlimited else {
            drainLocked()
            return .none
        }
        // This child's `.max(1)` is spent. Keep it going by returning demand if there is more and
        // nothing queued; when demand became unlimited the drain asks it for `.unlimited` instead.
        // flatMap (Combine's rule): a delivered element always asks its child for the next one; the
        // next one waits here if the downstream has no demand left.
        state.children[index].requested = false
        if state.demand > 0 || asksNewChildren, state.demand != .unlimited, queue.isEmpty || asksNewChildren,
            state.children[index].subscription != nil
        {
            state.children[index].requested = true
            drainLocked()
            return .max(1)
        }
        drainLocked()
        return .none
    }

    @inlinable
    func childReceive(completion: Subscribers.Completion<Downstream.Failure>, index: Int, generation: Int) {
        lock.lock()
        guard !state.terminated, isCurrent(index, generation) else {
            lock.unlock()
            return
        }
        state.children[index].finished = true
        state.children[index].subscription = nil
        state.active -= 1
        state.free.append(index)
        var refill: (any Subscription)?
        switch completion {
        case .failure(let error):
            if failure == nil {
                failure = error
                if failsNowWhileAskingLocked(error) { return }
            }
        case .finished:
            if refillsOuter { refill = state.outer.subscription }
        }
        takeTurnThenDrainLocked()
        refill?.request(.max(1))
    }

    /// With the lock held: takes the delivery turn (waiting for it if another thread holds it), runs
    /// `inTurn` under the lock, then drains. If this thread already holds it (a call from inside the
    /// downstream), the outer call drains instead. Unlocks.
    @inlinable
    func takeTurnThenDrainLocked(_ inTurn: () -> Void = {}) {
        takeTurnLocked(name: name, inTurn) { drainLocked() }
    }

    /// Delivers queued values while there is demand, then a due completion, then asks idle
    /// children for more, and gives the turn back. Called with `lock` and the turn held; unlocks.
    @inlinable
    func drainLocked() {
        while true {
            guard let downstream = subscriber else {
                leaveTurnLocked()
                return
            }
            if let failure {
                finishLocked(downstream, .failure(failure))
                return
            }
            if state.demand > 0, let value = queue.popFirst() {
                let from = asksNewChildren ? queuedFrom.popFirst() : nil
                state.demand -= 1
                let more = unlocked { downstream.receive(value) }
                state.demand += more
                // flatMap (Combine's rule): the child whose queued value went out is asked for its
                // next one at once, demand or not.
                if let (index, generation) = from, state.demand != .unlimited, isCurrent(index, generation),
                    !state.children[index].requested, let subscription = state.children[index].subscription
                {
                    state.children[index].requested = true
                    state.askingChild = true
                    unlocked { subscription.request(.max(1)) }
                    state.askingChild = false
                }
                continue
            }
            if queue.isEmpty, state.active == 0, state.outer.isTerminal {
                finishLocked(downstream, .finished)
                return
            }
            break
        }
        // Ask every idle child for more, now that the queue is as empty as demand allows.
        var asks: [(any Subscription, Subscribers.Demand)] = []
        if state.demand > 0 {
            let unlimited = state.demand == .unlimited
            // Fields are read in place: copying a child's state would retain its subscription.
            for index in state.children.indices
            where !state.children[index].finished
                && (unlimited ? !state.children[index].unlimited : !state.children[index].requested)
            {
                guard let subscription = state.children[index].subscription else { continue }
                state.children[index].requested = true
                state.children[index].unlimited = unlimited
                asks.append((subscription, unlimited ? .unlimited : .max(1)))
            }
        }
        leaveTurnLocked()
        for (subscription, demand) in asks {
            subscription.request(demand)
        }
    }

    /// Ends the stream: cancels what still runs and completes. Unlocks.
    @inlinable
    func finishLocked(_ downstream: Downstream, _ completion: Subscribers.Completion<Downstream.Failure>) {
        let (subscriptions, dropped) = terminateLocked()
        // Nobody calls the downstream after this (`subscriber` is nil): the turn can go now.
        leaveTurnLocked()
        for subscription in subscriptions {
            subscription.cancel()
        }
        downstream.receive(completion: completion)
        withExtendedLifetime(dropped) {}
    }

    /// Ends the stream under the lock: detaches the downstream and takes out what the caller
    /// cancels after unlocking (the outer upstream first, then the children) and what it releases
    /// after unlocking (queued values, the children's state).
    @inlinable
    func terminateLocked() -> (cancel: [any Subscription], release: (FIFO<Downstream.Input>, [MergeChildState])) {
        var subscriptions: [any Subscription] = []
        if let outer = state.outer.terminate() { subscriptions.append(outer) }
        for child in state.children.indices {
            if let subscription = state.children[child].subscription { subscriptions.append(subscription) }
        }
        subscriber = nil
        state.terminated = true
        let dropped = (queue, state.children)
        queue = FIFO()
        queuedFrom = FIFO()
        state.children = []
        return (subscriptions, dropped)
    }

    @usableFromInline
    final class Child: Subscriber, CustomStringConvertible {
        @usableFromInline typealias Input = Downstream.Input
        @usableFromInline typealias Failure = Downstream.Failure

        @usableFromInline let core: MergeCore
        @usableFromInline let index: Int
        @usableFromInline let generation: Int

        @inlinable
        init(core: MergeCore, index: Int, generation: Int) {
            self.core = core
            self.index = index
            self.generation = generation
        }

        @usableFromInline var description: String { core.name }

        @inlinable
        func receive(subscription: any Subscription) {
            core.childReceive(subscription: subscription, index: index, generation: generation)
        }

        @inlinable
        func receive(_ input: Input) -> Subscribers.Demand {
            core.childReceive(input, index: index, generation: generation)
        }

        @inlinable
        func receive(completion: Subscribers.Completion<Failure>) {
            core.childReceive(completion: completion, index: index, generation: generation)
        }
    }
}
