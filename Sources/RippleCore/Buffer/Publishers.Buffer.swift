extension Publishers {
    /// A strategy for filling a buffer.
    public enum PrefetchStrategy: Equatable, Hashable, Sendable {
        /// Fill the buffer at subscription, and keep it full: every element that leaves asks the
        /// upstream for one more.
        case keepFull
        /// Ask the upstream for everything (`.unlimited`) and hold what the downstream has not yet
        /// asked for, up to the buffer's size.
        case byRequest
    }

    /// A strategy that handles exhaustion of a buffer's capacity.
    public enum BufferingStrategy<Failure: Error> {
        /// When the buffer is full, discard the newly received element.
        case dropNewest
        /// When the buffer is full, discard the oldest element in the buffer.
        case dropOldest
        /// When the buffer is full, cancel the upstream and fail with the given error.
        case customError(() -> Failure)
    }

    /// A publisher that buffers elements from an upstream publisher.
    ///
    /// Elements wait here until the downstream asks for them. As in Combine, `.finished` is
    /// delivered once the buffered elements are and the downstream has demand left (a request for
    /// more); an upstream failure is delivered as soon as the downstream has no demand, dropping
    /// what is still buffered (with demand, buffered elements go first). A `.customError` overflow
    /// cancels the upstream at once and drops the element that overflowed; as in Combine, the
    /// elements already held are still delivered as the downstream asks for them, and the failure
    /// follows them (or goes out as soon as a request leaves elements it does not cover). As in
    /// Combine, the upstream is asked for the prefetch (`.max(size)` for `.keepFull`, `.unlimited`
    /// for `.byRequest`) before the subscriber gets this publisher's subscription.
    ///
    /// Differs from Combine: after a `.customError` overflow has cancelled the upstream, `.keepFull`
    /// asks the cancelled upstream for nothing more (Combine still requests a refill from it for
    /// each held element it delivers).
    ///
    /// Differs from Combine: a subscriber that cancels inside `receive(_:)` gets none of the
    /// elements still held, and no completion: nothing is delivered after `cancel()` returns.
    ///
    /// Differs from Combine: a `.customError` closure that sends the upstream another value into
    /// the full buffer is served, and the stream fails once; Combine traps on its own lock.
    ///
    /// A `size` of zero holds nothing: every element that cannot be delivered at once is handled
    /// by `whenFull` (with `.dropOldest` it is the element dropped), and `.keepFull` asks its
    /// upstream for `.max(0)` — as in Combine, which does not trap on it either.
    public struct Buffer<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The maximum number of elements to store.
        public let size: Int
        /// The strategy for initially populating the buffer.
        public let prefetch: Publishers.PrefetchStrategy
        /// The action to take when the buffer becomes full.
        public let whenFull: Publishers.BufferingStrategy<Upstream.Failure>

        /// Creates a `Buffer` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(
            upstream: Upstream, size: Int, prefetch: Publishers.PrefetchStrategy,
            whenFull: Publishers.BufferingStrategy<Failure>
        ) {
            self.upstream = upstream
            self.size = size
            self.prefetch = prefetch
            self.whenFull = whenFull
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: BufferInner(downstream: subscriber, size: size, prefetch: prefetch, whenFull: whenFull))
        }
    }
}

extension Publisher {
    /// Buffers elements received from an upstream publisher.
    ///
    /// ```swift
    /// // Let a slow consumer (one at a time) miss nothing from a subject:
    /// subject.buffer(size: 100, prefetch: .byRequest, whenFull: .dropOldest)
    ///     .flatMap(maxPublishers: .max(1)) { upload($0) }
    /// ```
    public func buffer(
        size: Int, prefetch: Publishers.PrefetchStrategy, whenFull: Publishers.BufferingStrategy<Failure>
    ) -> Publishers.Buffer<Self> {
        Publishers.Buffer(upstream: self, size: size, prefetch: prefetch, whenFull: whenFull)
    }
}

/// The subscriber and subscription behind ``Publishers/Buffer``.
///
/// Delivery follows the engine's contract (``DeliveryTurn``): an element that arrives while the
/// downstream has demand and nothing is buffered is delivered on the thread that sent it; a thread
/// that finds another one delivering waits its turn, in arrival order, and then delivers; an element
/// sent from inside the downstream's `receive` on the same thread is delivered nested. Buffered
/// elements and a due completion are delivered by the thread that brings the demand or the event,
/// in its turn.
private final class BufferInner<Downstream: Subscriber>: TurnStorage<BufferState<Downstream>>, Subscriber,
    Subscription, CustomStringConvertible
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let size: Int
    private let prefetch: Publishers.PrefetchStrategy
    private let whenFull: Publishers.BufferingStrategy<Failure>

    init(downstream: Downstream, size: Int, prefetch: Publishers.PrefetchStrategy, whenFull: Publishers.BufferingStrategy<Failure>) {
        self.size = size
        self.prefetch = prefetch
        self.whenFull = whenFull
        super.init(state: BufferState(downstream: downstream))
    }


    var description: String { "Buffer" }

    func receive(subscription: any Subscription) {
        guard let downstream = lock.withLock({ state.acceptUpstream(subscription) }) else {
            subscription.cancel()
            return
        }
        // Combine's order: the prefetch is asked for before the downstream gets this subscription;
        // what arrives meanwhile is buffered (there is no demand yet).
        subscription.request(prefetch == .keepFull ? .max(size) : .unlimited)
        lock.withLock { state.handDown() }
        downstream.receive(subscription: self)
        // A completion that arrived before the hand-off is delivered now if nothing else does.
        lock.lock()
        drainIfDue(state.completionWaitsAfterHandOff())
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        switch state.arrive(input, size: size, whenFull: whenFull) {
        case .ignore:
            lock.unlock()
            return .none
        case .deliver:
            return deliverLocked(input)
        case .buffered:
            lock.unlock()
            return .none
        case .droppedNewest:
            lock.unlock()
            return refill(1)
        case .droppedOldest(let dropped):
            lock.unlock()
            withExtendedLifetime(dropped) {}
            return refill(1)
        case .makeError(let makeError, let upstream):
            lock.unlock()
            // The error is made after unlocking (it is user code), before the cancel, as in Combine.
            let error = makeError()
            upstream?.cancel()
            lock.lock()
            drainIfDue(state.failed(error))
            return .none
        }
    }

    /// Delivers `input`, for which one demand was taken, in this thread's turn. Called with `lock`
    /// held; unlocks. Returns what the upstream is owed.
    private func deliverLocked(_ input: Input) -> Subscribers.Demand {
        lock.assertHeld()
        guard case .called(let more, let nested) = callInTurnLocked(name: "Buffer", to: { state.downstream }, { $0.receive(input) })
        else {
            // Cancelled or completed while this thread waited.
            return .none
        }
        state.delivered(more)
        if nested {
            // The outermost call on this thread drains.
            lock.unlock()
            return refill(1)
        }
        return drainLocked() + refill(1)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        drainIfDue(state.upstreamCompleted(completion))
    }

    /// Adds the demand and delivers what it allows; as in Combine, a request for `.none` adds
    /// nothing and does not trap.
    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        guard state.isActive else {
            lock.unlock()
            return
        }
        // The demand counts from this thread's turn on: the thread that brings it delivers what it
        // allows.
        let delivered = takeTurnThenDrainLocked(adding: demand)
        if delivered > 0, let upstream = lock.withLock({ state.upstreamSubscription }) {
            upstream.request(delivered)
        }
    }

    func cancel() {
        lock.lock()
        // Buffered elements leave the locked state here and are released after unlocking.
        let (upstream, released, dropped) = state.cancel()
        lock.unlock()
        upstream?.cancel()
        withExtendedLifetime((released, dropped)) {}
    }

    /// keepFull asks for one more element per element that left the buffer (or passed by it).
    private func refill(_ count: Int) -> Subscribers.Demand {
        prefetch == .keepFull ? .max(count) : .none
    }

    /// Performs what a completion made due. Called with `lock` held; unlocks.
    private func drainIfDue(_ ending: BufferState<Downstream>.Ending) {
        switch ending {
        case .ignore: lock.unlock()
        case .drain: _ = takeTurnThenDrainLocked()
        }
    }

    /// With the lock held: takes the delivery turn (waiting for it if another thread holds it), then
    /// drains. If this thread already holds it (a call from inside the downstream), the outer call
    /// drains instead. Unlocks. Returns the refill owed upstream for the buffered elements delivered.
    /// `demand` is added once the turn is this thread's (or at once, nested).
    private func takeTurnThenDrainLocked(adding demand: Subscribers.Demand = .none) -> Subscribers.Demand {
        lock.assertHeld()
        var delivered = Subscribers.Demand.none
        takeTurnLocked(name: "Buffer") {
            state.request(demand)
        } drain: {
            delivered = drainLocked()
        }
        return delivered
    }

    /// Delivers buffered elements while there is demand, then a due completion, and gives the turn
    /// back. Called with `lock` and the turn held; unlocks. Returns the refill owed upstream for the
    /// buffered elements it delivered.
    private func drainLocked() -> Subscribers.Demand {
        lock.assertHeld()
        var delivered = 0
        while true {
            switch state.next() {
            case .deliver(let downstream, let value):
                let more = unlocked { downstream.receive(value) }
                state.delivered(more)
                delivered += 1
            case .finish(let downstream, let completion, let dropped):
                // Nobody calls the downstream after this: the turn can go now.
                leaveTurnLocked()
                downstream.receive(completion: completion)
                withExtendedLifetime(dropped) {}
                return .none
            case .idle:
                leaveTurnLocked()
                return refill(delivered)
            }
        }
    }
}
