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
    /// keep gathering). With `.byTimeOrCount`, a group that reaches the count is closed at once
    /// (later elements start the next one) and the clock restarts; as in Combine since iOS 13.3 and
    /// macOS 10.15.2, the full group is published from an action scheduled on the scheduler, not
    /// from inside the upstream's delivery of its last element — so with `DispatchQueue.main`
    /// every group arrives on the main queue. On finish the last group is published before
    /// `.finished`; a failure drops it.
    ///
    /// Upstream demand, as Combine's: with `.byTime`, each request of the downstream asks the
    /// upstream for one element and each element asks for one more (the upstream is never held
    /// back); with `.byTimeOrCount`, a request for `n` groups asks for `n × count` elements, and
    /// the demand the downstream returns from a group published at the count is requested from
    /// the upstream multiplied the same way (the element that completed the group returns
    /// `.none`). Demand returned from a group the clock published counts for the downstream only.
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
            upstream.receive(subscriber: CollectByTimeInner(downstream: subscriber, strategy: strategy, options: options))
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
        // `.none` asks nothing more of the upstream (and does not trap).
        guard demand > 0 else { return }
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
    /// while the downstream has demand (what finds none keeps waiting). The demand returned from a
    /// full group is requested from the upstream, `count` elements per group.
    private func publishGroup(includingPartial: Bool = true) {
        while true {
            let next = lock.withLock { () -> (group: [Element], full: Bool, downstream: Downstream)? in
                guard let downstream = state.downstream, state.demand > 0 else { return nil }
                if !state.extra.full.isEmpty {
                    state.demand -= 1
                    return (state.extra.full.removeFirst(), true, downstream)
                }
                guard includingPartial, !state.extra.group.isEmpty else { return nil }
                defer { state.extra.group = [] }
                state.demand -= 1
                return (state.extra.group, false, downstream)
            }
            guard let next else { return }
            let more = next.downstream.receive(next.group)
            guard more > 0 else { continue }
            lock.withLock { state.demand += more }
            if next.full, let count { passUpstream(more * count) }
        }
    }

    func receive(_ input: Element) -> Subscribers.Demand {
        guard let count else {
            lock.withLock {
                if state.downstream != nil { state.extra.group.append(input) }
            }
            return .max(1)
        }
        let complete = lock.withLock { () -> Bool in
            guard state.downstream != nil else { return false }
            state.extra.group.append(input)
            guard state.extra.group.count >= count else { return false }
            // The group is complete now: later elements start the next one.
            state.extra.full.append(state.extra.group)
            state.extra.group = []
            return true
        }
        guard complete else { return .none }
        startClock()
        // As in Combine since iOS 13.3: published from the scheduler, and the demand the
        // downstream returns is requested rather than returned from here.
        scheduler.schedule(options: options) { [weak self] in self?.publishGroup(includingPartial: false) }
        return .none
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
