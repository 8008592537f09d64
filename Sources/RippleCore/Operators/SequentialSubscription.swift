/// The subscription behind operators that subscribe to one publisher after another — append,
/// prepend, concatenate, catch, tryCatch, retry.
///
/// The downstream sees one subscription for the whole run. As in Combine, the first publisher is
/// subscribed first and the downstream is handed this subscription from inside that publisher's
/// `receive(subscription:)`, so a request made there reaches the first publisher at once. Its
/// demand is remembered; each later publisher is subscribed only after the previous one
/// completed, and is asked at once for the demand not yet met. Every child carries a generation
/// number so that a late event from a replaced child is ignored.
///
/// Stack safety (rule T6): a child that completes synchronously inside `subscribe` (a `Fail`, a
/// `Just`, any synchronous publisher) does not subscribe the next one from inside its own stack
/// frame. The thread that is already subscribing a child runs the next step in a loop once the
/// current `subscribe` returns, so `retry(1_000_000)` over a failing publisher, or a long run of
/// synchronous suffixes, uses constant stack depth.
final class SequentialSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    /// What to do when the current child completes.
    enum Next {
        /// Complete the downstream.
        case complete(Subscribers.Completion<Downstream.Failure>)
        /// Subscribe to the next publisher (the closure calls ``attach(_:onCompletion:)``).
        case `continue`(() -> Void)
    }

    private struct State {
        var downstream: Downstream?
        /// Whether the downstream was handed this subscription (by the first child to deliver a
        /// subscription, or before anything else reaches it).
        var downstreamSubscribed = false
        /// Requested by the downstream and not yet delivered.
        var demand = Subscribers.Demand.none
        var current: (any Subscription)?
        var generation = 0
        /// The thread running ``runSteps(_:)``'s loop (0 when none): a step reached from inside
        /// it on that thread is handed to the loop instead of running nested.
        var steppingThread: UInt = 0
        /// The step handed to the loop, run once the current one returns.
        var queuedStep: (() -> Void)?
        /// Suffixes of concatenations spliced into this run (see ``ConcatenationSplicing``), the
        /// next one last: each attaches its publisher. A finished child is followed by the last
        /// one; a failure discards them all.
        var suffixes: [() -> Void] = []
        /// The child subscribed last, whose completion handler (which may hold the next publisher)
        /// a cancel takes away: the publisher it subscribed to may keep it after the cancel.
        weak var child: (any SequentialChild)?
    }

    private let lock = Lock()
    private var state: State
    private let name: String
    /// Whether demand the downstream returns from `receive(_:)` is requested from the current
    /// child (and `.none` returned to it) rather than returned to the child — Combine's `retry`.
    private let requestsReturnedDemand: Bool
    /// What a misbehaving child makes trap, as in Combine.
    private let traps: SequentialMisbehaviourTraps
    /// Whether a request for `.none` is passed on to the current child (Combine's concatenation
    /// does: OpenCombine's `ConcatenateTests.testBackpressure`, recorded against Combine, sees
    /// `.requested(.none)` reach the prefix) rather than ignored.
    private let passesZeroDemand: Bool

    init(
        downstream: Downstream, name: String, requestsReturnedDemand: Bool = false,
        passesZeroDemand: Bool = false, traps: SequentialMisbehaviourTraps = []
    ) {
        state = State(downstream: downstream)
        self.name = name
        self.requestsReturnedDemand = requestsReturnedDemand
        self.passesZeroDemand = passesZeroDemand
        self.traps = traps
    }

    var description: String { name }

    var customMirror: Mirror {
        let (downstream, demand) = lock.withLock { (state.downstream, state.demand) }
        return Mirror(self, children: [("downstream", downstream as Any), ("demand", demand)])
    }

    var playgroundDescription: Any { description }

    /// Subscribes the first publisher; the downstream gets this subscription when that publisher
    /// sends its own.
    ///
    /// The first publisher is subscribed directly, not from the step loop, so (as in Combine) a
    /// completion that arrives while it is being subscribed subscribes the next publisher at once,
    /// nested; only steps reached from inside that next step are queued for the loop.
    func start<P: Publisher>(
        with publisher: P, onCompletion: @escaping (Subscribers.Completion<P.Failure>) -> Next
    ) where P.Output == Downstream.Input {
        attach(publisher, onCompletion: onCompletion)
    }

    /// Marks the downstream as subscribed and returns it if it had not been handed this
    /// subscription yet (call under the lock; hand it over after unlocking).
    private func takeUnsubscribedDownstreamLocked() -> Downstream? {
        lock.assertHeld()
        guard !state.downstreamSubscribed else { return nil }
        state.downstreamSubscribed = true
        return state.downstream
    }

    /// Hands the downstream this subscription if nothing did yet: a child that sends a value or
    /// completes without having sent a subscription must not reach an unsubscribed downstream.
    private func subscribeDownstreamIfNeeded() {
        let downstream = lock.withLock { takeUnsubscribedDownstreamLocked() }
        downstream?.receive(subscription: self)
    }

    /// Runs `step`, then every step queued while it ran on this thread, one after another.
    ///
    /// A step reached on the thread that is already running the loop (a synchronous completion
    /// inside `subscribe`) is queued and the call returns at once, unwinding the stack. A step
    /// reached on another thread runs there directly: it cannot deepen this thread's stack.
    private func runSteps(_ step: @escaping () -> Void) {
        let thread = currentThreadID()
        lock.lock()
        if state.steppingThread == thread {
            state.queuedStep = step
            lock.unlock()
            return
        }
        let outermost = state.steppingThread == 0
        if outermost { state.steppingThread = thread }
        lock.unlock()
        guard outermost else {
            // Another thread is looping; this one runs its own step (no nesting on its stack).
            step()
            return
        }
        var next: (() -> Void)? = step
        while let current = next {
            current()
            lock.lock()
            next = state.queuedStep
            state.queuedStep = nil
            if next == nil { state.steppingThread = 0 }
            lock.unlock()
        }
    }

    /// Subscribes `publisher` as the next child.
    func attach<P: Publisher>(
        _ publisher: P, onCompletion: @escaping (Subscribers.Completion<P.Failure>) -> Next
    ) where P.Output == Downstream.Input {
        lock.lock()
        guard state.downstream != nil else {
            lock.unlock()
            return
        }
        let child = Child(parent: self, generation: state.generation, onCompletion: onCompletion)
        state.child = child
        lock.unlock()
        StackGuard.check(name)
        publisher.receive(subscriber: child)
    }

    // MARK: Downstream side

    /// Adds the demand and passes it to the current child. A request for `.none` is ignored: as in
    /// Combine, it does not trap.
    func request(_ demand: Subscribers.Demand) {
        guard demand > 0 else {
            if passesZeroDemand, let current = lock.withLock({ state.downstream == nil ? nil : state.current }) {
                current.request(demand)
            }
            return
        }
        lock.lock()
        guard state.downstream != nil else {
            lock.unlock()
            return
        }
        state.demand += demand
        let current = state.current
        lock.unlock()
        current?.request(demand)
    }

    func cancel() {
        lock.lock()
        let current = state.current
        let released = state.downstream
        let queued = state.queuedStep
        let suffixes = state.suffixes
        // As in Combine, what comes next is let go at once, even if the current publisher keeps
        // its subscriber.
        let handler = state.child?.takeHandlerLocked()
        state.child = nil
        state.current = nil
        state.downstream = nil
        state.queuedStep = nil
        state.suffixes = []
        state.generation += 1
        lock.unlock()
        current?.cancel()
        _ = released
        _ = queued
        _ = suffixes
        _ = handler
    }

    // MARK: Children

    private func childReceive(subscription: any Subscription, generation: Int) {
        lock.lock()
        guard state.downstream != nil, generation == state.generation, state.current == nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state.current = subscription
        // Demand the downstream made before this child arrived (none for the first child: the
        // downstream is handed this subscription only now, and requests made from inside that
        // call go straight to the child).
        let demand = state.demand
        let unsubscribed = takeUnsubscribedDownstreamLocked()
        lock.unlock()
        unsubscribed?.receive(subscription: self)
        if demand > 0 {
            subscription.request(demand)
        }
    }

    private func childReceive(_ input: Downstream.Input, generation: Int) -> Subscribers.Demand {
        lock.lock()
        if !traps.isEmpty, state.downstream != nil, generation == state.generation {
            // As in Combine, only the first publisher's value before its subscription traps: a
            // later one (retry's next attempt, catch's handler publisher) may send a value from
            // inside `subscribe`, before its subscription, and it is delivered.
            let first = generation == 0
            let early = first && state.current == nil
            let unwanted = state.demand == .none
                && (traps.contains(.valueWithoutDemandFromEveryChild) || (first && traps.contains(.valueWithoutDemand)))
            if (early && traps.contains(.valueBeforeSubscription)) || unwanted {
                lock.unlock()
                fatalError("\(name): received a value \(early ? "before a subscription" : "without demand")")
            }
        }
        if !state.downstreamSubscribed {
            // A child sending a value before any subscription (a protocol violation upstream).
            lock.unlock()
            subscribeDownstreamIfNeeded()
            lock.lock()
        }
        guard let downstream = state.downstream, generation == state.generation else {
            lock.unlock()
            return .none
        }
        if state.demand > 0 {
            state.demand -= 1
        }
        lock.unlock()
        let more = downstream.receive(input)
        guard more > 0 else { return .none }
        lock.lock()
        state.demand += more
        let current = generation == state.generation ? state.current : nil
        lock.unlock()
        guard requestsReturnedDemand else { return more }
        current?.request(more)
        return .none
    }

    /// What follows a child's completion.
    private enum AfterChild {
        /// The child was replaced or the run is over: ignore the completion.
        case stale
        /// A spliced suffix is next: run it.
        case suffix(() -> Void)
        /// The child's own completion handler decides (any spliced suffixes were dropped; they are
        /// handed back to be released after unlocking).
        case handler(dropped: [() -> Void])
    }

    /// Retires the child if it was current and says what comes next.
    private func childCompleted(generation: Int, finished: Bool) -> AfterChild {
        lock.withLock {
            guard state.downstream != nil, generation == state.generation else { return .stale }
            state.generation += 1
            state.current = nil
            if finished, let next = state.suffixes.popLast() {
                return .suffix(next)
            }
            let dropped = state.suffixes
            state.suffixes = []
            return .handler(dropped: dropped)
        }
    }

    /// Pushes `suffix` to follow the current child if a child of `generation` is current and not
    /// yet subscribed; `false` otherwise.
    private func pushSuffix(_ suffix: @escaping () -> Void, generation: Int) -> Bool {
        lock.withLock {
            guard state.downstream != nil, generation == state.generation, state.current == nil else { return false }
            state.suffixes.append(suffix)
            return true
        }
    }

    private func finish(_ completion: Subscribers.Completion<Downstream.Failure>) {
        subscribeDownstreamIfNeeded()
        lock.lock()
        let downstream = state.downstream
        state.downstream = nil
        state.current = nil
        lock.unlock()
        downstream?.receive(completion: completion)
    }

    private final class Child<ChildFailure: Error>: Subscriber, CustomStringConvertible,
        ConcatenationSplicing, SequentialChild
    {
        typealias Input = Downstream.Input
        typealias Failure = ChildFailure

        let parent: SequentialSubscription
        let generation: Int
        /// Taken by the completion it handles, or by a cancel; guarded by the parent's lock.
        private var onCompletion: ((Subscribers.Completion<ChildFailure>) -> Next)?

        init(parent: SequentialSubscription, generation: Int, onCompletion: @escaping (Subscribers.Completion<ChildFailure>) -> Next) {
            self.parent = parent
            self.generation = generation
            self.onCompletion = onCompletion
        }

        var description: String { parent.name }

        func takeHandlerLocked() -> Any? {
            takeOnCompletionLocked()
        }

        private func takeOnCompletionLocked() -> ((Subscribers.Completion<ChildFailure>) -> Next)? {
            parent.lock.assertHeld()
            defer { onCompletion = nil }
            return onCompletion
        }

        func receive(subscription: any Subscription) {
            parent.childReceive(subscription: subscription, generation: generation)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            parent.childReceive(input, generation: generation)
        }

        func splice<Prefix: Publisher, Suffix: Publisher>(prefix: Prefix, suffix: Suffix) -> Bool
        where
            Prefix.Output == Input, Prefix.Failure == ChildFailure, Suffix.Output == Input,
            Suffix.Failure == ChildFailure
        {
            // Both parts share this child's completion handler; the suffix waits on the stack, so
            // nesting builds no chain of closures (whose release would recurse).
            let parent = self.parent
            guard let onCompletion = parent.lock.withLock({ self.onCompletion }) else { return false }
            guard parent.pushSuffix({ parent.attach(suffix, onCompletion: onCompletion) }, generation: generation)
            else { return false }
            parent.runSteps { parent.attach(prefix, onCompletion: onCompletion) }
            return true
        }

        func receive(completion: Subscribers.Completion<ChildFailure>) {
            let finished: Bool
            if case .finished = completion { finished = true } else { finished = false }
            switch parent.childCompleted(generation: generation, finished: finished) {
            case .stale:
                return
            case .suffix(let next):
                parent.runSteps(next)
                return
            case .handler(let dropped):
                _ = dropped
            }
            // Taken, so that it is let go once it has run; a cancel may have taken it already.
            guard let onCompletion = parent.lock.withLock({ takeOnCompletionLocked() }) else { return }
            switch onCompletion(completion) {
            case .complete(let completion):
                parent.finish(completion)
            case .continue(let next):
                parent.runSteps(next)
            }
        }
    }
}

/// The misbehaviours of a ``SequentialSubscription``'s child that trap (with a message naming the
/// operator) instead of being passed on.
struct SequentialMisbehaviourTraps: OptionSet {
    let rawValue: Int
    /// A value from the first publisher before its subscription (Combine's `catch`, `tryCatch`,
    /// `retry`; a later child's early value is delivered, as in Combine).
    static let valueBeforeSubscription = SequentialMisbehaviourTraps(rawValue: 1)
    /// A value the downstream has not asked for, from the first publisher (Combine's `catch`,
    /// `tryCatch`: the handler's publisher is not checked).
    static let valueWithoutDemand = SequentialMisbehaviourTraps(rawValue: 2)
    /// A value the downstream has not asked for, from any child (Combine's `retry`, every attempt).
    static let valueWithoutDemandFromEveryChild = SequentialMisbehaviourTraps(rawValue: 4)
}

/// A child of a ``SequentialSubscription``, whose completion handler a cancel takes away.
private protocol SequentialChild: AnyObject {
    /// Returns the completion handler (to be released after unlocking) and forgets it. Called with
    /// the parent's lock held.
    func takeHandlerLocked() -> Any?
}

/// A subscriber that can take a concatenation's two parts as its own next steps.
///
/// A ``Publishers/Concatenate`` subscribed by a step of another sequential subscription (an outer
/// concatenation, catch, retry) splices its prefix and suffix into that subscription instead of
/// nesting a subscription of its own, so a long chain of concatenations — however it is nested,
/// through `AnyPublisher` too — delivers through one level and subscribes each part from one loop.
/// Nothing observable changes: the outer subscription is what the downstream sees either way, and
/// demand and cancellation pass through it as they would through the nested one.
protocol ConcatenationSplicing<Input, Failure>: Subscriber {
    /// Takes `prefix` then `suffix` as this subscriber's next steps; `false` if it cannot (it was
    /// already subscribed or is done), and the caller subscribes normally.
    func splice<Prefix: Publisher, Suffix: Publisher>(prefix: Prefix, suffix: Suffix) -> Bool
    where Prefix.Output == Input, Prefix.Failure == Failure, Suffix.Output == Input, Suffix.Failure == Failure
}
