extension Publishers {
    /// A publisher that delivers elements to its downstream subscriber on a specific scheduler.
    ///
    /// The subscription itself is passed on synchronously, and requests and cancellation go
    /// straight to the upstream; every value and the completion are scheduled on `scheduler`. After
    /// cancellation, events already scheduled are not delivered. Demand the downstream returns from
    /// `receive(_:)` is requested from the upstream.
    ///
    /// Calls to the downstream — `receive(subscription:)`, every `receive(_:)` and the completion —
    /// never overlap, whatever the scheduler: a block that finds another thread inside the
    /// downstream waits until that call returns (in arrival order), as Combine's per-subscriber
    /// lock does. What the order is depends on the scheduler:
    /// - On a serial scheduler (a serial `DispatchQueue`, a run loop, `ImmediateScheduler`, a test
    ///   scheduler) values and the completion arrive in the order the upstream sent them.
    /// - On a concurrent scheduler (a concurrent `DispatchQueue`, or any scheduler that runs
    ///   scheduled blocks on several threads at once) values arrive one at a time, on different
    ///   threads, in the order the scheduler runs their blocks, which may not be the order they were
    ///   sent in. Still, every value is delivered (unless the subscriber cancels), and the completion
    ///   comes after every value: it waits until every value scheduled before it has returned from
    ///   `receive(_:)`, and is then delivered on the thread of the last of them to return.
    /// - A call the subscriber causes from inside its own `receive(_:)` (it sends to, or completes,
    ///   the upstream subject, say) on a scheduler that runs it at once on that thread
    ///   (`ImmediateScheduler`) is delivered at once, nested, as in Combine; a nested completion
    ///   waits only for values scheduled on other threads.
    ///
    /// Differs from Combine: a completion scheduled before the subscriber cancelled is not
    /// delivered either; Combine still delivers it (values it drops, as Ripple does).
    ///
    /// Differs from Combine: on a concurrent scheduler the completion waits for the values
    /// scheduled before it; Combine schedules it like a value, so it can arrive before some of them,
    /// which then arrive after it.
    public struct ReceiveOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The scheduler the publisher uses to deliver elements.
        public let scheduler: Context
        /// Scheduler options used to customize element delivery.
        public let options: Context.SchedulerOptions?

        /// Creates a `ReceiveOn` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: ReceiveOnInner(downstream: subscriber, scheduler: scheduler, options: options))
        }
    }

    /// A publisher that receives elements from an upstream publisher on a specific scheduler.
    ///
    /// Subscribing to the upstream, requests and cancellation are scheduled on `scheduler`; values
    /// and completion are delivered synchronously, on whatever thread the upstream uses.
    ///
    /// Differs from Combine: a request made from inside the upstream's handling of a request (on
    /// `ImmediateScheduler`, say) is passed on in turn; Combine traps on its own lock.
    public struct SubscribeOn<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The scheduler the publisher should use to receive subscribe, request and cancel calls.
        public let scheduler: Context
        /// Scheduler options that customize the delivery of elements.
        public let options: Context.SchedulerOptions?

        /// Creates a `SubscribeOn` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
            self.upstream = upstream
            self.scheduler = scheduler
            self.options = options
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let inner = SubscribeOnInner(downstream: subscriber, scheduler: scheduler, options: options)
            let upstream = self.upstream
            scheduler.schedule(options: options) { upstream.receive(subscriber: inner) }
        }
    }
}

extension Publisher {
    /// Specifies the scheduler on which to receive elements from the publisher.
    ///
    /// ```swift
    /// let cancellable = results
    ///     .receive(on: DispatchQueue.main)   // deliver on the main queue
    ///     .sink { label.text = $0 }
    /// ```
    public func receive<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil) -> Publishers.ReceiveOn<Self, S> {
        Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
    }

    /// Specifies the scheduler on which to perform subscribe, cancel, and request operations.
    public func subscribe<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil) -> Publishers.SubscribeOn<Self, S> {
        Publishers.SubscribeOn(upstream: self, scheduler: scheduler, options: options)
    }
}

/// What `receive(on:)` keeps about its scheduled values, so that the completion comes after all of
/// them even on a scheduler that runs blocks on several threads at once (a concurrent queue runs a
/// later-scheduled completion block while an earlier value's block has not started, or is still
/// inside the downstream, on another thread).
///
/// Guarded by the inner's lock; each transition is applied under it and says what to do after
/// unlocking. Not generic: the held completion itself is kept by the inner (`ReceiveOnInner.held`),
/// so the per-value transitions are compiled once for every `receive(on:)` and ask the runtime for
/// no generic metadata (the inner runs unspecialized).
struct ReceiveOnFlight {
    /// Values scheduled whose block has not returned yet (not started, or inside the downstream).
    private var unreturned = 0
    /// The threads of the value blocks now running (one entry per block; a thread appears more than
    /// once when blocks nest on it, as on `ImmediateScheduler`).
    private var runningOn: [UInt] = []
    /// A completion arrived while values of other threads were unreturned: delivered by the last
    /// of them to return.
    private var holding = false

    /// The upstream sent a value: its block is about to be scheduled.
    mutating func valueScheduled() {
        unreturned += 1
    }

    /// A value's block starts on `thread`.
    mutating func valueStarted(on thread: UInt) {
        runningOn.append(thread)
    }

    /// A value's block returned on `thread`. Returns `true` when a completion is held and this was
    /// the last value it waited for: the caller takes the held completion and delivers it.
    mutating func valueReturned(on thread: UInt) -> Bool {
        unreturned -= 1
        if let index = runningOn.lastIndex(of: thread) { runningOn.remove(at: index) }
        guard unreturned == 0, holding else { return false }
        holding = false
        return true
    }

    /// The completion's block runs on `thread`: `true` to deliver it now; `false`: it is held (the
    /// caller keeps it) until ``valueReturned(on:)`` says to deliver it. It waits while a value is
    /// unreturned, except the values running on this very thread — the completion was then sent
    /// from inside their delivery, and is delivered nested, as Combine does.
    mutating func completionArrived(on thread: UInt) -> Bool {
        var here = 0
        for running in runningOn where running == thread { here += 1 }
        guard unreturned > here else { return true }
        holding = true
        return false
    }
}

/// `receive(on:)`'s own fields, guarded by the inner's lock: its values in flight, and the turn
/// that keeps its calls to the downstream from overlapping.
struct ReceiveOnState {
    /// The values scheduled and not returned, and whether a completion is held behind them.
    var flight = ReceiveOnFlight()
    /// Who is calling the downstream, and who waits to: every call to it (`receive(subscription:)`,
    /// a value, the completion) is made in this turn.
    var turn = DeliveryTurn()
}

private final class ReceiveOnInner<Downstream: Subscriber, Context: Scheduler>:
    OperatorInner<Downstream, ReceiveOnState>, Subscriber, TurnRunner
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let scheduler: Context
    private let options: Context.SchedulerOptions?
    /// The completion the flight holds behind values still unreturned (guarded by `lock`): set when
    /// `completionArrived` says to hold it, taken when `valueReturned` says to deliver it.
    private var held: Subscribers.Completion<Failure>?

    init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
        self.scheduler = scheduler
        self.options = options
        super.init(downstream: downstream, extra: ReceiveOnState(), name: "ReceiveOn")
    }

    /// Takes `thread`'s turn to call the downstream: at once if it is free, at once and nested
    /// (`true`: do not give it back) if this thread holds it further up its stack (a call the
    /// downstream caused on `ImmediateScheduler`), or after sleeping until the thread calling it now
    /// hands it over (the lock is released meanwhile). Called with `lock` held; returns with it held.
    @inline(__always)
    private func enterTurnLocked(_ thread: UInt) -> Bool {
        // The transition's access to the turn ends before the thread parks (the runner).
        switch enterLocked(TurnAdmission(state.extra.turn.enter(thread, name: name)), keeping: self) {
        case .entered(let nested):
            return nested
        case .released:
            fatalError("Ripple: internal error: a bare delivery turn never drops its caller")
        }
    }

    /// Gives the turn back unless `nested`, and unlocks; the next waiter is woken after unlocking.
    /// Called with `lock` and the turn held.
    @inline(__always)
    private func leaveTurnLocked(nested: Bool) {
        leaveTurnLocked(&state.extra.turn, nested: nested)
    }

    /// Passes the subscription on synchronously, in the turn: a value the downstream's request
    /// causes on another thread waits until `receive(subscription:)` returns.
    func receive(subscription: any Subscription) {
        lock.lock()
        guard let downstream = state.downstream, state.upstream.accept(subscription) else {
            lock.unlock()
            subscription.cancel()
            return
        }
        let nested = enterTurnLocked(currentThreadID())
        lock.unlock()
        downstream.receive(subscription: self)
        lock.lock()
        leaveTurnLocked(nested: nested)
    }

    /// Requests go straight upstream; as in Combine, a request for `.none` is passed on too.
    override func request(_ demand: Subscribers.Demand) {
        passUpstream(demand)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.withLock { state.extra.flight.valueScheduled() }
        scheduler.schedule(options: options) { [self] in
            let thread = currentThreadID()
            lock.lock()
            let nested = enterTurnLocked(thread)
            state.extra.flight.valueStarted(on: thread)
            let downstream = state.downstream
            lock.unlock()
            let more = downstream?.receive(input) ?? .none
            lock.lock()
            let subscription = more > 0 ? state.upstream.subscription : nil
            if state.extra.flight.valueReturned(on: thread) {
                deliverHeldAndLeaveLocked(nested: nested)
            } else {
                leaveTurnLocked(nested: nested)
            }
            withExtendedLifetime(downstream) {}  // released after unlocking
            subscription?.request(more)
        }
        return .none
    }

    /// Delivers the completion held behind the value that just returned, in that value's turn,
    /// after it, then gives the turn back unless `nested` and unlocks; the downstream it took is
    /// released after unlocking. Called with `lock` and the turn held. Kept apart, and out of line,
    /// so that the per-value block has no local of the completion's generic types, and asks the
    /// runtime for none of their metadata.
    @inline(never)
    private func deliverHeldAndLeaveLocked(nested: Bool) {
        let completion = held.take()
        let completing = completion == nil ? nil : state.downstream.take()
        if let completion, let completing {
            lock.unlock()
            completing.receive(completion: completion)
            lock.lock()
        }
        leaveTurnLocked(nested: nested)
        withExtendedLifetime((completion, completing)) {}  // released after unlocking
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.withLock { state.upstream = .terminal }
        scheduler.schedule(options: options) { [self] in
            let thread = currentThreadID()
            lock.lock()
            // Delivered now only when no value of another thread is unreturned: nobody else holds
            // the turn then but a `receive(subscription:)` still running, or this thread itself.
            guard state.extra.flight.completionArrived(on: thread) else {
                held = completion
                lock.unlock()
                return
            }
            guard let downstream = state.downstream.take() else {
                lock.unlock()
                return
            }
            let nested = enterTurnLocked(thread)
            lock.unlock()
            downstream.receive(completion: completion)
            lock.lock()
            leaveTurnLocked(nested: nested)
        }
    }
}

/// `subscribe(on:)`'s subscription: requests and cancels are scheduled, deliveries are
/// synchronous. After a cancel nothing more reaches the downstream, even when the upstream (whose
/// cancel is still scheduled) keeps sending.
private final class SubscribeOnInner<Downstream: Subscriber, Context: Scheduler>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private struct State {
        var upstream = UpstreamStatus.awaitingSubscription
        var downstream: Downstream?
    }

    private let lock = Lock()
    private var state: State
    private let scheduler: Context
    private let options: Context.SchedulerOptions?

    init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
        state = State(downstream: downstream)
        self.scheduler = scheduler
        self.options = options
    }

    var description: String { "SubscribeOn" }
    var playgroundDescription: Any { description }
    var customMirror: Mirror { Mirror(self, children: [:]) }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard let downstream = state.downstream, state.upstream.accept(subscription) else {
            lock.unlock()
            subscription.cancel()
            return
        }
        lock.unlock()
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .subscribed = state.upstream, let downstream = state.downstream else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        return downstream.receive(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard case .subscribed = state.upstream, let downstream = state.downstream else {
            lock.unlock()
            return
        }
        state.upstream = .terminal
        state.downstream = nil
        lock.unlock()
        downstream.receive(completion: completion)
    }

    /// Schedules the request, `.none` included: Combine passes a request for `.none` on.
    func request(_ demand: Subscribers.Demand) {
        guard let subscription = lock.withLock({ state.upstream.subscription }) else { return }
        scheduler.schedule(options: options) { subscription.request(demand) }
    }

    func cancel() {
        lock.lock()
        let subscription = state.upstream.terminate()
        let released = state.downstream
        state.downstream = nil
        lock.unlock()
        _ = released
        guard let subscription else { return }
        scheduler.schedule(options: options) { subscription.cancel() }
    }
}
