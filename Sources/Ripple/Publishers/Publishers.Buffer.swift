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
    /// what is still buffered (with demand, buffered elements go first); a `.customError` overflow
    /// fails at once. As in Combine, the upstream is asked for the
    /// prefetch (`.max(size)` for `.keepFull`, `.unlimited` for `.byRequest`) before the
    /// subscriber gets this publisher's subscription.
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
            require(size > 0, "buffer: size must be greater than zero (got \(size))")
            self.upstream = upstream
            self.size = size
            self.prefetch = prefetch
            self.whenFull = whenFull
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(BufferInner(downstream: subscriber, size: size, prefetch: prefetch, whenFull: whenFull))
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

private final class BufferInner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private struct State {
        var upstream = UpstreamStatus.awaitingSubscription
        var downstream: Downstream?
        var demand = Subscribers.Demand.none
        var buffer = FIFO<Input>()
        var completion: Subscribers.Completion<Failure>?
        var delivering = false
        /// The downstream has this subscription: a completion may go out.
        var handedDown = false
    }

    private let lock = Lock()
    private var state: State
    private let size: Int
    private let prefetch: Publishers.PrefetchStrategy
    private let whenFull: Publishers.BufferingStrategy<Failure>

    init(downstream: Downstream, size: Int, prefetch: Publishers.PrefetchStrategy, whenFull: Publishers.BufferingStrategy<Failure>) {
        state = State(downstream: downstream)
        self.size = size
        self.prefetch = prefetch
        self.whenFull = whenFull
    }

    var description: String { "Buffer" }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard let downstream = state.downstream, state.upstream.accept(subscription) else {
            lock.unlock()
            subscription.cancel()
            return
        }
        lock.unlock()
        // Combine's order: the prefetch is asked for before the downstream gets this subscription;
        // what arrives meanwhile is buffered (there is no demand yet).
        subscription.request(prefetch == .keepFull ? .max(size) : .unlimited)
        lock.withLock { state.handedDown = true }
        downstream.receive(subscription: self)
        // A completion that arrived before the hand-off is delivered now if nothing else does.
        lock.lock()
        guard !state.delivering, state.downstream != nil, state.completion != nil else {
            lock.unlock()
            return
        }
        state.delivering = true
        _ = drainLocked()
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard let downstream = state.downstream, state.completion == nil else {
            lock.unlock()
            return .none
        }
        if !state.delivering, state.demand > 0, state.buffer.isEmpty {
            state.delivering = true
            state.demand -= 1
            lock.unlock()
            let more = downstream.receive(input)
            lock.lock()
            state.demand += more
            return drainLocked() + refill(1)
        }
        if state.buffer.count < size {
            state.buffer.append(input)
        } else {
            switch whenFull {
            case .dropNewest:
                lock.unlock()
                return refill(1)
            case .dropOldest:
                _ = state.buffer.popFirst()
                state.buffer.append(input)
                lock.unlock()
                return refill(1)
            case .customError(let makeError):
                let upstream = state.upstream.terminate()
                state.buffer.removeAll()
                state.completion = .failure(makeError())
                lock.unlock()
                upstream?.cancel()
                lock.lock()
                guard !state.delivering else {
                    lock.unlock()
                    return .none
                }
                state.delivering = true
                _ = drainLocked()
                return .none
            }
        }
        guard !state.delivering else {
            lock.unlock()
            return .none
        }
        state.delivering = true
        return drainLocked()
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard state.downstream != nil, state.completion == nil else {
            lock.unlock()
            return
        }
        state.upstream = .terminal
        state.completion = completion
        guard !state.delivering else {
            lock.unlock()
            return
        }
        state.delivering = true
        _ = drainLocked()
    }

    func request(_ demand: Subscribers.Demand) {
        require(demand > 0, "Buffer: demand must be greater than zero (got \(demand))")
        lock.lock()
        guard state.downstream != nil else {
            lock.unlock()
            return
        }
        state.demand += demand
        guard !state.delivering else {
            lock.unlock()
            return
        }
        state.delivering = true
        let delivered = drainLocked()
        if delivered > 0, let upstream = lock.withLock({ state.upstream.subscription }) {
            upstream.request(delivered)
        }
    }

    func cancel() {
        lock.lock()
        let upstream = state.upstream.terminate()
        let released = state.downstream
        state.downstream = nil
        state.buffer.removeAll()
        lock.unlock()
        upstream?.cancel()
        _ = released
    }

    /// keepFull asks for one more element per element that left the buffer (or passed by it).
    private func refill(_ count: Int) -> Subscribers.Demand {
        prefetch == .keepFull ? .max(count) : .none
    }

    /// Delivers buffered elements while there is demand, then a due completion. Called with the
    /// lock held and `delivering` set; unlocks. Returns the refill owed upstream for the buffered
    /// elements it delivered.
    private func drainLocked() -> Subscribers.Demand {
        var delivered = 0
        while let downstream = state.downstream {
            if state.demand > 0, let value = state.buffer.popFirst() {
                state.demand -= 1
                lock.unlock()
                let more = downstream.receive(value)
                lock.lock()
                state.demand += more
                delivered += 1
                continue
            }
            // Combine's rule: `.finished` goes out once the buffer is empty and the downstream has
            // demand; a failure as soon as the downstream has no demand (or nothing is left).
            if state.handedDown, let completion = state.completion,
                state.buffer.isEmpty ? (state.demand > 0 || !completion.isFinished) : state.demand == 0 && !completion.isFinished
            {
                state.downstream = nil
                state.delivering = false
                lock.unlock()
                downstream.receive(completion: completion)
                return .none
            }
            break
        }
        state.delivering = false
        lock.unlock()
        return refill(delivered)
    }
}

extension Subscribers.Completion {
    /// Whether this is `.finished`.
    fileprivate var isFinished: Bool {
        if case .finished = self { return true }
        return false
    }
}
