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
/// The decisions — which child to ask for what, slot reuse, what is due, when it finishes — are
/// ``MergeState``'s transitions, compiled once. This class is the generic shell around them: it
/// holds the downstream and the values waiting for it, calls it, and calls the subscriptions the
/// state returns. Inlinable, so it is specialized for the concrete downstream in the code that
/// subscribes (unspecialized, every event paid for generic metadata lookups: ~6,000 instructions a
/// value).
@usableFromInline
final class MergeCore<Downstream: Subscriber>: TurnStorage<MergeState>, Subscription, CustomStringConvertible {
    @usableFromInline let name: String
    /// Guarded by `lock`, like `state`; `nil` once terminated. (The lock, the state and the
    /// delivery turn in it are ``TurnStorage``'s.)
    @usableFromInline @exclusivity(unchecked) var subscriber: Downstream?
    /// Values that arrived without demand, in arrival order (the state counts them). Guarded by
    /// `lock`.
    @usableFromInline @exclusivity(unchecked) var queue = FIFO<Downstream.Input>()
    /// The first failure, delivered by the drain. Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) var failure: Downstream.Failure?
    /// flatMap traps on a request for `.none`; merge asks for nothing (Combine's rules: OpenCombine
    /// `FlatMapTests` and `MergeTests.testNoDemandOnSubscriptionNoCrashes`, recorded against it).
    @usableFromInline let trapsOnZeroDemand: Bool

    /// A merge of `count` children, subscribed with ``subscribe(_:at:)``.
    @inlinable
    init(downstream: Downstream, count: Int, name: String) {
        subscriber = downstream
        self.name = name
        trapsOnZeroDemand = false
        super.init(state: MergeState(merging: count))
    }

    /// A flatMap: children are added as the outer upstream publishes them.
    @inlinable
    init(downstream: Downstream, outerIsBounded: Bool, name: String) {
        subscriber = downstream
        self.name = name
        trapsOnZeroDemand = true
        super.init(state: MergeState(flatMapWithBoundedOuter: outerIsBounded))
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
        lock.withLock { state.acceptOuter(subscription) }
    }

    /// Subscribes a new child for a publisher the outer upstream produced.
    @inlinable
    func addChild<P: Publisher>(_ publisher: P) where P.Output == Downstream.Input, P.Failure == Downstream.Failure {
        guard let (index, generation) = lock.withLock({ state.addChild() }) else { return }
        publisher.receive(subscriber: Child(core: self, index: index, generation: generation))
    }

    @inlinable
    func outerReceive(completion: Subscribers.Completion<Downstream.Failure>) {
        let failing = if case .failure = completion { true } else { false }
        lock.lock()
        endLocked(state.outerCompleted(failing: failing), completion)
    }

    /// Acts on what a completion (of a child or the outer upstream) made due. Called with `lock`
    /// held; unlocks.
    @inlinable
    func endLocked(_ ending: MergeState.Ending, _ completion: Subscribers.Completion<Downstream.Failure>) {
        lock.assertHeld()
        switch ending {
        case .ignore:
            lock.unlock()
        case .fail:
            if case .failure(let error) = completion {
                failure = error
                if failsNowWhileAskingLocked(error) { return }
            }
            takeTurnThenDrainLocked()
        case .drain(let refill):
            takeTurnThenDrainLocked()
            refill?.request(.max(1))
        }
    }

    /// flatMap: a failure that arrives on the thread that is asking a child for its next element
    /// is delivered at once (``MergeState/failsNowWhileAsking(turnOwner:)``). What waits in the
    /// queue is dropped, as a failure always drops it. Called with `lock` held; returns `true`
    /// (unlocked) when it delivered.
    @inlinable
    func failsNowWhileAskingLocked(_ error: Downstream.Failure) -> Bool {
        lock.assertHeld()
        guard state.failsNowWhileAsking(turnOwner: turn.owner), let downstream = subscriber else { return false }
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
        takeTurnThenDrainLocked { state.request(demand) }
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
    func childReceive(subscription: any Subscription, index: Int, generation: Int) {
        lock.lock()
        let attach = state.attach(subscription, index: index, generation: generation)
        lock.unlock()
        switch attach {
        case .cancel: subscription.cancel()
        case .keep: break
        case .request(let demand): subscription.request(demand)
        }
    }

    @inlinable
    func childReceive(_ input: Downstream.Input, index: Int, generation: Int) -> Subscribers.Demand {
        lock.lock()
        switch state.arrive(index: index, generation: generation, turnOwner: turn.owner) {
        case .drop:
            lock.unlock()
            return .none
        case .queue:
            queue.append(input)
            lock.unlock()
            return .none
        case .deliver(let wasUnlimited):
            guard case .called(let more, let nested) = callInTurnLocked(name: name, to: { subscriber }, { $0.receive(input) }) else {
                // Cancelled or completed while this thread waited.
                return .none
            }
            let again = state.delivered(more, index: index, generation: generation, wasUnlimited: wasUnlimited, nested: nested)
            // Nested: the outermost call on this thread drains and asks the children for more.
            if nested {
                lock.unlock()
            } else {
                drainLocked()
            }
            return again
        }
    }

    @inlinable
    func childReceive(completion: Subscribers.Completion<Downstream.Failure>, index: Int, generation: Int) {
        let failing = if case .failure = completion { true } else { false }
        lock.lock()
        endLocked(state.childCompleted(index: index, generation: generation, failing: failing), completion)
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
        lock.assertHeld()
        while true {
            guard let downstream = subscriber else {
                leaveTurnLocked()
                return
            }
            if let failure {
                finishLocked(downstream, .failure(failure))
                return
            }
            switch state.next() {
            case .deliver(let from):
                let value = queue.popFirst()!
                let more = unlocked { downstream.receive(value) }
                if let subscription = state.deliveredQueued(more, from: from) {
                    unlocked { subscription.request(.max(1)) }
                    state.askedChild()
                }
            case .finish:
                finishLocked(downstream, .finished)
                return
            case .idle(let asks):
                leaveTurnLocked()
                for (subscription, demand) in asks {
                    subscription.request(demand)
                }
                return
            }
        }
    }

    /// Ends the stream: cancels what still runs and completes. Unlocks.
    @inlinable
    func finishLocked(_ downstream: Downstream, _ completion: Subscribers.Completion<Downstream.Failure>) {
        lock.assertHeld()
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
    /// cancels after unlocking (``MergeState/terminate()``) and what it releases after unlocking
    /// (queued values, the children's state).
    @inlinable
    func terminateLocked() -> (cancel: [any Subscription], release: (FIFO<Downstream.Input>, [MergeChildState])) {
        lock.assertHeld()
        let (subscriptions, children) = state.terminate()
        subscriber = nil
        let dropped = queue
        queue = FIFO()
        return (subscriptions, (dropped, children))
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
