/// A publisher that eventually produces a single value and then finishes or fails.
///
/// The closure runs once, inside `init`. The first call of the promise counts; later calls are
/// ignored. A success waits for each subscriber's demand; a failure is delivered at once. Late
/// subscribers get the stored result.
///
/// ```swift
/// func fetchGreeting(completion: @escaping @Sendable (String) -> Void) { completion("hi") }
///
/// let greeting = Future<String, Never> { promise in
///     fetchGreeting { promise(.success($0)) }
/// }
/// let cancellable = greeting.sink { print($0) }
/// // Prints "hi"
/// ```
///
/// Differs from Combine: a subscriber that cancels inside `receive(_:)` does not get the
/// `.finished` that would follow (Combine sends it): nothing is delivered after `cancel()` returns.
///
/// Differs from Combine: `Promise` is `@Sendable`, so a completion handler that runs on another
/// thread (or a `Task`) can capture it under Swift 6 strict concurrency; it was always thread-safe.
public final class Future<Output, Failure: Error>: Publisher, @unchecked Sendable {
    /// A type that represents a closure to invoke in the future, when an element or error is available.
    public typealias Promise = @Sendable (Result<Output, Failure>) -> Void

    private struct State {
        var result: Result<Output, Failure>?
        /// Subscriptions waiting for the result, in subscription order.
        var waiting: ContiguousArray<FutureSubscriptionBase<Output, Failure>> = []
    }

    private let lock = Lock()
    private var state = State()

    /// Creates a publisher that invokes a promise closure when the publisher emits an element.
    public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
        attemptToFulfill { [self] result in
            self.fulfill(result)
        }
    }

    private func fulfill(_ result: Result<Output, Failure>) {
        lock.lock()
        guard state.result == nil else {
            lock.unlock()
            return
        }
        state.result = result
        let waiting = state.waiting
        state.waiting = []
        lock.unlock()
        for subscription in waiting {
            subscription.resolve(result)
        }
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        lock.lock()
        let result = state.result
        // A future already resolved hands its result to the subscription before the subscriber
        // gets it, so a request made inside `receive(subscription:)` is served at once, as
        // `Just`'s is (and Combine's conduit, which looks up its future's result when asked).
        let subscription = FutureSubscription(downstream: subscriber, future: self, result: result)
        if result == nil {
            state.waiting.append(subscription)
        }
        lock.unlock()
        subscriber.receive(subscription: subscription)
        if let result {
            subscription.resolve(result)
        }
    }

    /// Forgets a cancelled subscription, so a future that never resolves does not accumulate them.
    fileprivate func remove(_ subscription: FutureSubscriptionBase<Output, Failure>) {
        lock.lock()
        if let index = state.waiting.firstIndex(where: { $0 === subscription }) {
            state.waiting.remove(at: index)
        }
        lock.unlock()
    }

    /// The published value, once the future succeeds. Throws the failure.
    public var value: Output {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                let resumer = OnceResumer(continuation)
                let sink = Subscribers.Sink<Output, Failure>(
                    receiveCompletion: { completion in
                        if case .failure(let error) = completion { resumer.resume(throwing: error) }
                    },
                    receiveValue: { value in resumer.resume(returning: value) })
                self.receive(subscriber: sink)
            }
        }
    }
}

extension Future where Failure == Never {
    /// The published value, once the future produces it.
    public var value: Output {
        get async {
            await withCheckedContinuation { continuation in
                let resumer = OnceResumer(continuation)
                self.receive(subscriber:
                    Subscribers.Sink<Output, Never>(
                        receiveCompletion: { _ in }, receiveValue: { resumer.resume(returning: $0) }))
            }
        }
    }
}

/// Resumes a checked continuation at most once (a Future sends one value; this guards against misuse).
private final class OnceResumer<T, E: Error>: @unchecked Sendable {
    private let lock = Lock()
    private var continuation: CheckedContinuation<T, E>?

    init(_ continuation: CheckedContinuation<T, E>) {
        self.continuation = continuation
    }

    private func take() -> CheckedContinuation<T, E>? {
        lock.lock()
        defer { lock.unlock() }
        let taken = continuation
        continuation = nil
        return taken
    }

    func resume(returning value: T) {
        nonisolated(unsafe) let value = value  // unsafe: handed to the one continuation, never used here again
        take()?.resume(returning: value)
    }

    func resume(throwing error: E) {
        take()?.resume(throwing: error)
    }
}

/// A Future's subscription, minus the subscriber's type, so the future can keep a list of them.
class FutureSubscriptionBase<Output, Failure: Error> {
    func resolve(_ result: Result<Output, Failure>) {
        fatalError("FutureSubscriptionBase.resolve is overridden by FutureSubscription")
    }
}

/// Delivers a Future's result to one subscriber: a failure at once, a success once there is demand.
private final class FutureSubscription<Downstream: Subscriber>:
    FutureSubscriptionBase<Downstream.Input, Downstream.Failure>, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    private struct State {
        var downstream: Downstream?
        var result: Result<Downstream.Input, Downstream.Failure>?
        var hasDemand = false
        /// Kept until the result is delivered or the subscription cancelled.
        var future: Future<Downstream.Input, Downstream.Failure>?
        /// Set by `cancel()`: a cancel made inside `receive(_:)` stops the `.finished` that follows.
        var cancelled = false
    }

    private let lock = Lock()
    private var state: State

    init(
        downstream: Downstream, future: Future<Downstream.Input, Downstream.Failure>,
        result: Result<Downstream.Input, Downstream.Failure>?
    ) {
        state = State(downstream: downstream, result: result, future: future)
    }

    var description: String { "Future" }

    var customMirror: Mirror {
        let (future, downstream, hasDemand) = lock.withLock { (state.future, state.downstream, state.hasDemand) }
        return Mirror(
            self,
            children: [
                ("parent", future as Any), ("downstream", downstream as Any), ("hasAnyDemand", hasDemand),
                ("subject", future as Any),
            ])
    }

    var playgroundDescription: Any { description }

    override func resolve(_ result: Result<Downstream.Input, Downstream.Failure>) {
        lock.lock()
        guard state.downstream != nil else {
            lock.unlock()
            return
        }
        state.result = result
        deliverIfReadyLocked()
    }

    func request(_ demand: Subscribers.Demand) {
        require(demand > 0, "Future: demand must be greater than zero (got \(demand))")
        lock.lock()
        guard state.downstream != nil else {
            lock.unlock()
            return
        }
        state.hasDemand = true
        deliverIfReadyLocked()
    }

    /// Called with `lock` held; unlocks it.
    private func deliverIfReadyLocked() {
        lock.assertHeld()
        guard let downstream = state.downstream, let result = state.result else {
            lock.unlock()
            return
        }
        switch result {
        case .success(let value):
            guard state.hasDemand else {
                lock.unlock()
                return
            }
            state.downstream = nil
            let future = state.future.take()
            lock.unlock()
            _ = future
            _ = downstream.receive(value)
            // Differs from Combine: a subscriber that cancelled inside `receive(_:)` gets nothing
            // more (Combine still sends `.finished`); no delivery follows a returned `cancel()`.
            guard !lock.withLock({ state.cancelled }) else { return }
            downstream.receive(completion: .finished)
        case .failure(let error):
            state.downstream = nil
            let future = state.future.take()
            lock.unlock()
            _ = future
            downstream.receive(completion: .failure(error))
        }
    }

    func cancel() {
        lock.lock()
        let released = state
        state = State(cancelled: true)
        lock.unlock()
        released.future?.remove(self)
    }
}
