extension Publishers {
    /// A strategy for collecting received elements.
    public enum TimeGroupingStrategy<Context: Scheduler> {
        /// A grouping that collects and periodically publishes items.
        case byTime(Context, Context.SchedulerTimeType.Stride)
        /// A grouping that collects and publishes items periodically or when a buffer reaches a
        /// maximum size.
        case byTimeOrCount(Context, Context.SchedulerTimeType.Stride, Int)
    }

    /// A publisher that buffers and periodically publishes its items.
    ///
    /// Every `stride` (a repeating schedule started at subscription) the elements gathered so far
    /// are published as one array, if there are any and the downstream has demand (otherwise they
    /// keep gathering). With `.byTimeOrCount`, a group is also published as soon as it reaches the
    /// count — from inside the upstream's delivery of its last element — and the clock restarts.
    /// On finish the last group is published before `.finished`; a failure drops it.
    ///
    /// Upstream demand, as Combine's: with `.byTime`, each request of the downstream asks the
    /// upstream for one element and each element asks for one more (the upstream is never held
    /// back); with `.byTimeOrCount`, a request for `n` groups asks for `n × count` elements, and
    /// the demand the downstream returns from a group published at the count goes up multiplied
    /// the same way. Demand returned from a group the clock published counts for the downstream
    /// only.
    public struct CollectByTime<Upstream: Publisher, Context: Scheduler>: Publisher {
        public typealias Output = [Upstream.Output]
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The strategy with which to collect and publish elements.
        public let strategy: Publishers.TimeGroupingStrategy<Context>
        /// Scheduler options to use for the strategy.
        public let options: Context.SchedulerOptions?

        /// Creates a `CollectByTime` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, strategy: Publishers.TimeGroupingStrategy<Context>, options: Context.SchedulerOptions?) {
            if case .byTimeOrCount(_, _, let count) = strategy {
                require(count > 0, "collect(.byTimeOrCount): count must be greater than zero (got \(count))")
            }
            self.upstream = upstream
            self.strategy = strategy
            self.options = options
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(CollectByTimeInner(downstream: subscriber, strategy: strategy, options: options))
        }
    }
}

extension Publisher {
    /// Collects elements by a given time-grouping strategy, and emits a single array of the
    /// collection.
    ///
    /// ```swift
    /// let cancellable = clicks
    ///     .collect(.byTime(DispatchQueue.main, .seconds(1)))
    ///     .sink { print("\($0.count) clicks this second") }
    /// ```
    public func collect<S: Scheduler>(
        _ strategy: Publishers.TimeGroupingStrategy<S>, options: S.SchedulerOptions? = nil
    ) -> Publishers.CollectByTime<Self, S> {
        Publishers.CollectByTime(upstream: self, strategy: strategy, options: options)
    }
}

private struct CollectByTimeState<Element> {
    var group: [Element] = []
    /// Groups that reached the count (`.byTimeOrCount`), each published whole, oldest first.
    var full: [[Element]] = []
    var clock: (any Cancellable)?
}

private final class CollectByTimeInner<Downstream: Subscriber, Element, Context: Scheduler>:
    TimedInner<Downstream, Context, CollectByTimeState<Element>>, Subscriber
where Downstream.Input == [Element] {
    typealias Input = Element
    typealias Failure = Downstream.Failure

    private let stride: Context.SchedulerTimeType.Stride
    private let count: Int?

    init(downstream: Downstream, strategy: Publishers.TimeGroupingStrategy<Context>, options: Context.SchedulerOptions?) {
        let scheduler: Context
        switch strategy {
        case .byTime(let context, let stride):
            (scheduler, self.stride, count) = (context, stride, nil)
        case .byTimeOrCount(let context, let stride, let count):
            (scheduler, self.stride, self.count) = (context, stride, count)
        }
        super.init(downstream: downstream, scheduler: scheduler, options: options, extra: CollectByTimeState(), name: "CollectByTime")
    }

    func receive(subscription: any Subscription) {
        if accept(subscription) { startClock() }
    }

    /// Nothing is asked of the upstream before the downstream asks.
    override var initialUpstreamDemand: Subscribers.Demand { .none }

    override func request(_ demand: Subscribers.Demand) {
        super.request(demand)
        forwardUpstream(count.map { demand * $0 } ?? .max(1))
    }

    private func startClock() {
        let clock = scheduler.schedule(
            after: scheduler.now.advanced(by: stride), interval: stride, tolerance: scheduler.minimumTolerance,
            options: options
        ) { [weak self] in self?.publishGroup() }
        let previous = lock.withLock { () -> (any Cancellable)? in
            defer { state.extra.clock = clock }
            return state.extra.clock
        }
        previous?.cancel()
    }

    /// Publishes the full groups, then (on a tick of the clock) the elements gathered so far,
    /// while the downstream has demand (what finds none keeps waiting).
    private func publishGroup(includingPartial: Bool = true) {
        while true {
            let group = lock.withLock { () -> [Element]? in
                guard state.downstream != nil, state.demand > 0 else { return nil }
                if !state.extra.full.isEmpty { return state.extra.full.removeFirst() }
                guard includingPartial, !state.extra.group.isEmpty else { return nil }
                defer { state.extra.group = [] }
                return state.extra.group
            }
            guard let group, deliver(group) else { return }
        }
    }

    func receive(_ input: Element) -> Subscribers.Demand {
        guard let count else {
            lock.withLock {
                if state.downstream != nil { state.extra.group.append(input) }
            }
            return .max(1)
        }
        // Whether the group is complete now, and the downstream to publish it to at once (when it
        // has demand and no older full group waits).
        let (complete, publishTo, group) = lock.withLock { () -> (Bool, Downstream?, [Element]) in
            guard let downstream = state.downstream else { return (false, nil, []) }
            state.extra.group.append(input)
            guard state.extra.group.count >= count else { return (false, nil, []) }
            // The group is complete now: later elements start the next one.
            let group = state.extra.group
            state.extra.group = []
            guard state.demand > 0, state.extra.full.isEmpty else {
                state.extra.full.append(group)
                return (true, nil, [])
            }
            state.demand -= 1
            return (true, downstream, group)
        }
        guard complete else { return .none }
        startClock()
        guard let publishTo else { return .none }
        let more = publishTo.receive(group)
        guard more > 0 else { return .none }
        lock.withLock { state.demand += more }
        return more * count
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        let (groups, clock) = lock.withLock { () -> ([[Element]], (any Cancellable)?) in
            state.upstream = .terminal
            defer {
                state.extra.full = []
                state.extra.group = []
                state.extra.clock = nil
            }
            let groups = state.extra.full + (state.extra.group.isEmpty ? [] : [state.extra.group])
            return (groups, state.extra.clock)
        }
        clock?.cancel()
        scheduler.schedule(options: options) { [self] in
            if case .finished = completion {
                for group in groups { deliver(group) }
            }
            complete(completion)
        }
    }

    override func cancel() {
        let clock = lock.withLock { () -> (any Cancellable)? in
            defer { state.extra.clock = nil }
            return state.extra.clock
        }
        clock?.cancel()
        super.cancel()
    }
}
