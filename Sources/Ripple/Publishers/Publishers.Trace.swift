extension Publishers {
    /// A publisher that records every event of each subscription to it — subscribe, request, value,
    /// completion, cancel — in a ``RippleDiagnostics/Timeline``, with its thread and time.
    ///
    /// Like ``Publishers/Print``, it stands between its upstream and its subscriber as an operator
    /// of its own: put it where the pipeline is to be seen.
    public struct Trace<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The name of each subscription's track.
        public let name: String
        /// Where the events are recorded.
        public let timeline: RippleDiagnostics.Timeline

        /// Creates a `Trace` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, name: String, timeline: RippleDiagnostics.Timeline) {
            self.upstream = upstream
            self.name = name
            self.timeline = timeline
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let inner = TraceInner(downstream: subscriber, name: name, timeline: timeline)
            timeline.record(.subscribe, name: name, subscription: inner.track)
            upstream.receive(subscriber: inner)
        }
    }
}

extension Publisher {
    /// Records every event of each subscription — subscribe, request, value, completion, cancel —
    /// with its thread and time, on a track of its own named `name` (Timelane's `lane`).
    ///
    /// ```swift
    /// let timeline = RippleDiagnostics.Timeline()
    /// let cancellable = Just("hi").trace("greeting", to: timeline).sink { _ in }
    /// print(timeline.events.map(\.kind.description))
    /// // Prints "["subscribe", "request unlimited", "value hi", "finished"]"
    /// _ = cancellable
    /// ```
    ///
    /// Export the recording with ``RippleDiagnostics/Timeline/chromeTraceJSON()`` and open it in
    /// Perfetto. Values are recorded by their description.
    ///
    /// - Parameters:
    ///   - name: The name of the subscriptions' tracks.
    ///   - timeline: Where to record (``RippleDiagnostics/Timeline/shared`` by default).
    /// - Returns: A publisher that republishes everything its upstream sends.
    public func trace(
        _ name: String, to timeline: RippleDiagnostics.Timeline = .shared
    ) -> Publishers.Trace<Self> {
        Publishers.Trace(upstream: self, name: name, timeline: timeline)
    }
}

/// Trace's subscriber and subscription: records, then forwards (the description of a value is made
/// before the timeline's lock is taken).
private final class TraceInner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let downstream: Downstream
    private let name: String
    private let timeline: RippleDiagnostics.Timeline
    let track: Int
    private let upstream = LockedValue(UpstreamStatus.awaitingSubscription)

    init(downstream: Downstream, name: String, timeline: RippleDiagnostics.Timeline) {
        self.downstream = downstream
        self.name = name
        self.timeline = timeline
        track = timeline.newSubscription()
    }

    var description: String { "Trace" }
    var playgroundDescription: Any { description }
    var customMirror: Mirror { Mirror(self, children: ["name": name]) }

    func receive(subscription: any Subscription) {
        let accepted = upstream.withLock { $0.accept(subscription) }
        guard accepted else {
            subscription.cancel()
            return
        }
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        timeline.record(.value(String(describing: input)), name: name, subscription: track)
        let demand = downstream.receive(input)
        if demand > 0 {
            timeline.record(.request(demand, synchronous: true), name: name, subscription: track)
        }
        return demand
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        let released = upstream.withLock { $0.terminate() }  // released after unlocking
        _ = released
        switch completion {
        case .finished: timeline.record(.finished, name: name, subscription: track)
        case .failure(let error):
            timeline.record(.failure(String(describing: error)), name: name, subscription: track)
        }
        downstream.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        timeline.record(.request(demand, synchronous: false), name: name, subscription: track)
        upstream.withLock { $0.subscription }?.request(demand)
    }

    func cancel() {
        let subscription = upstream.withLock { $0.terminate() }
        guard let subscription else { return }
        timeline.record(.cancel, name: name, subscription: track)
        subscription.cancel()
    }
}
