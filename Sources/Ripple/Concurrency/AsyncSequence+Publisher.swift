// Needs the typed `AsyncSequence.Failure` and `next(isolation:)`: the 2024 systems on Apple platforms.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension AsyncSequence where Self: Sendable {
    /// A publisher that iterates this async sequence, respecting demand: it asks the sequence for
    /// the next element only while the subscriber has outstanding demand.
    ///
    /// ```swift
    /// let ticks = AsyncStream<Int> { continuation in
    ///     for tick in 1...3 { continuation.yield(tick) }
    ///     continuation.finish()
    /// }
    /// let cancellable = ticks.publisher.sink { print($0) }
    /// // Prints "1", "2", "3" (from the iterating task)
    /// ```
    ///
    /// Iteration starts on the first positive request, in a `Task`; cancelling the subscription
    /// cancels that task. A thrown error fails the stream.
    public var publisher: AsyncSequencePublisher<Self> {
        AsyncSequencePublisher(self)
    }
}

/// A publisher that republishes the elements of an async sequence (see `AsyncSequence.publisher`).
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
public struct AsyncSequencePublisher<Base: AsyncSequence & Sendable>: Publisher, Sendable {
    public typealias Output = Base.Element
    public typealias Failure = Base.Failure

    /// The async sequence this publisher iterates.
    public let base: Base

    /// Creates a publisher that iterates `base`.
    public init(_ base: Base) {
        self.base = base
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let subscription = AsyncSequenceSubscription(base: base, downstream: subscriber)
        subscriber.receive(subscription: subscription)
    }
}

/// Iterates the sequence in one task, pausing whenever the downstream's demand runs out.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
private final class AsyncSequenceSubscription<Base: AsyncSequence & Sendable, Downstream: Subscriber>: Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == Base.Element, Downstream.Failure == Base.Failure {
    private struct State {
        var downstream: Downstream?
        var demand = Subscribers.Demand.none
        var task: Task<Void, Never>?
        /// The iterating task waits here for demand.
        var waiter: UnsafeContinuation<Void, Never>?
    }

    private let lock = Lock()
    private var state: State
    private let base: Base

    init(base: Base, downstream: Downstream) {
        self.base = base
        state = State(downstream: downstream)
    }

    var description: String { "AsyncSequence" }
    var customMirror: Mirror { Mirror(self, children: [("base", base as Any)]) }
    var playgroundDescription: Any { description }

    func request(_ demand: Subscribers.Demand) {
        require(demand > 0, "AsyncSequence publisher: demand must be greater than zero (got \(demand))")
        lock.lock()
        guard state.downstream != nil else {
            lock.unlock()
            return
        }
        state.demand += demand
        let waiter = state.waiter
        state.waiter = nil
        let start = state.task == nil
        if start {
            state.task = startTask(AsyncWork { [self] in await iterate() })
        }
        lock.unlock()
        waiter?.resume()
    }

    func cancel() {
        lock.lock()
        let task = state.task
        let waiter = state.waiter
        let released = state.downstream
        state = State()
        lock.unlock()
        task?.cancel()
        waiter?.resume()
        _ = released
    }

    /// Waits until there is demand; returns the downstream, or `nil` once cancelled.
    private func awaitDemand() async -> Downstream? {
        while true {
            let ready: Downstream?? = lock.withLock {
                guard let downstream = state.downstream else { return .some(nil) }
                if state.demand > 0 {
                    state.demand -= 1
                    return .some(downstream)
                }
                return nil
            }
            if let ready { return ready }
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                lock.lock()
                if state.downstream == nil || state.demand > 0 {
                    lock.unlock()
                    continuation.resume()
                } else {
                    state.waiter = continuation
                    lock.unlock()
                }
            }
        }
    }

    private func iterate() async {
        var iterator = base.makeAsyncIterator()
        while let downstream = await awaitDemand() {
            let element: Base.Element?
            do {
                element = try await iterator.next(isolation: nil)
            } catch {
                end(with: .failure(error))
                return
            }
            guard let element else {
                end(with: .finished)
                return
            }
            guard lock.withLock({ state.downstream != nil }) else { return }
            let more = downstream.receive(element)
            if more > 0 { lock.withLock { state.demand += more } }
        }
    }

    private func end(with completion: Subscribers.Completion<Downstream.Failure>) {
        let downstream = lock.withLock { () -> Downstream? in
            defer { state.downstream = nil }
            return state.downstream
        }
        downstream?.receive(completion: completion)
    }
}

extension Future where Failure == Never {
    /// Creates a future whose value comes from an async operation, started at once in a `Task`.
    ///
    /// ```swift
    /// let greeting = Future { await loadGreeting() }
    /// ```
    ///
    /// Like every future, it runs once whether or not anyone subscribes, and cancelling a
    /// subscriber does not cancel the operation.
    public convenience init(operation: @escaping @Sendable () async -> Output) where Output: Sendable {
        self.init { promise in
            Task { promise(.success(await operation())) }
        }
    }
}

extension Future where Failure == any Error {
    /// Creates a future whose value comes from a throwing async operation, started at once in a
    /// `Task`; a thrown error fails the future.
    public convenience init(operation: @escaping @Sendable () async throws -> Output) where Output: Sendable {
        self.init { promise in
            Task {
                do {
                    promise(.success(try await operation()))
                } catch {
                    promise(.failure(error))
                }
            }
        }
    }
}

/// An async body behind a non-generic type, so starting its task captures no generic metadata
/// (Swift 6 warns about capturing non-Sendable metatypes in a task's closure).
struct AsyncWork: @unchecked Sendable {
    let body: () async -> Void
}

/// Starts `work` in a new unstructured task.
func startTask(_ work: AsyncWork) -> Task<Void, Never> {
    Task { await work.body() }
}
