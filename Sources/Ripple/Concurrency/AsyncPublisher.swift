/// A publisher's elements as an `AsyncSequence` that never throws.
///
/// Each call to `next()` requests exactly one element (`.max(1)`), so a slow `for await` loop
/// applies back-pressure. Cancelling the task that iterates cancels the subscription and ends the
/// loop (`next()` returns `nil`).
///
/// ```swift
/// for await value in [1, 2, 3].publisher.values {
///     print(value)
/// }
/// // Prints "1", "2", "3"
/// ```
public struct AsyncPublisher<P: Publisher>: AsyncSequence where P.Failure == Never {
    public typealias Element = P.Output
    public typealias Failure = Never

    private let publisher: P

    /// Creates a publisher that exposes elements received from an upstream publisher as an async sequence.
    public init(_ publisher: P) {
        self.publisher = publisher
    }

    public func makeAsyncIterator() -> Iterator {
        let inner = AsyncBridge<P.Output, Never>()
        publisher.subscribe(inner)
        return Iterator(inner: inner)
    }

    /// The iterator that requests one element at a time.
    public struct Iterator: AsyncIteratorProtocol {
        fileprivate let inner: AsyncBridge<P.Output, Never>

        /// Produces the next element, or `nil` once the publisher finished or the task was cancelled.
        public mutating func next() async -> P.Output? {
            await inner.next().get()
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async -> P.Output? {
            await inner.next().get()
        }
    }
}

/// A publisher's elements as an `AsyncSequence` that throws the publisher's failure.
///
/// Each call to `next()` requests exactly one element; cancelling the iterating task cancels the
/// subscription and ends the loop.
public struct AsyncThrowingPublisher<P: Publisher>: AsyncSequence {
    public typealias Element = P.Output
    public typealias Failure = any Error

    private let publisher: P

    /// Creates a publisher that exposes elements received from an upstream publisher as a throwing
    /// async sequence.
    public init(_ publisher: P) {
        self.publisher = publisher
    }

    public func makeAsyncIterator() -> Iterator {
        let inner = AsyncBridge<P.Output, P.Failure>()
        publisher.subscribe(inner)
        return Iterator(inner: inner)
    }

    /// The iterator that requests one element at a time.
    public struct Iterator: AsyncIteratorProtocol {
        fileprivate let inner: AsyncBridge<P.Output, P.Failure>

        /// Produces the next element, `nil` once the publisher finished or the task was cancelled, or
        /// throws the publisher's failure.
        public mutating func next() async throws -> P.Output? {
            try await inner.next().get()
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> P.Output? {
            try await inner.next().get()
        }
    }
}

extension Publisher where Failure == Never {
    /// The elements produced by the publisher, as an asynchronous sequence.
    public var values: AsyncPublisher<Self> {
        AsyncPublisher(self)
    }
}

extension Publisher {
    /// The elements produced by the publisher, as a throwing asynchronous sequence.
    public var values: AsyncThrowingPublisher<Self> {
        AsyncThrowingPublisher(self)
    }
}

/// The subscriber behind both async sequences: one outstanding request, one waiting continuation.
final class AsyncBridge<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
    typealias Element = Result<Input?, Failure>

    private struct State {
        var status = UpstreamStatus.awaitingSubscription
        /// The `next()` call waiting for an element.
        var waiter: UnsafeContinuation<Element, Never>?
        /// Requests made before the subscription arrived.
        var pendingDemand = Subscribers.Demand.none
        /// The completion to report once no waiter is pending (`nil` result means finished).
        var terminal: Element?
    }

    private let lock = Lock()
    private var state = State()

    func receive(subscription: any Subscription) {
        lock.lock()
        guard state.status.accept(subscription) else {
            lock.unlock()
            subscription.cancel()
            return
        }
        let demand = state.pendingDemand
        state.pendingDemand = .none
        lock.unlock()
        if demand > 0 {
            subscription.request(demand)
        }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        let waiter = state.waiter
        state.waiter = nil
        lock.unlock()
        // Values beyond the single request are a publisher bug; they are dropped.
        nonisolated(unsafe) let element = Element.success(input)
        waiter?.resume(returning: element)
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        let element: Element
        switch completion {
        case .finished: element = .success(nil)
        case .failure(let error): element = .failure(error)
        }
        finish(with: element, cancelUpstream: false)
    }

    func cancel() {
        finish(with: .success(nil), cancelUpstream: true)
    }

    private func finish(with element: Element, cancelUpstream: Bool) {
        lock.lock()
        guard state.status.isTerminal else {
            let subscription = state.status.terminate()
            let waiter = state.waiter
            state.waiter = nil
            if waiter == nil { state.terminal = element }
            lock.unlock()
            if cancelUpstream {
                subscription?.cancel()
            }
            nonisolated(unsafe) let element = element
            waiter?.resume(returning: element)
            return
        }
        lock.unlock()
    }

    /// Requests one element and waits for it (or for the end of the stream).
    func next() async -> Element {
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Element, Never>) in
                lock.lock()
                if state.status.isTerminal {
                    // Report the completion once; after that the sequence just ends.
                    let element = state.terminal ?? .success(nil)
                    state.terminal = .success(nil)
                    lock.unlock()
                    nonisolated(unsafe) let sendable = element
                    continuation.resume(returning: sendable)
                    return
                }
                state.waiter = continuation
                let subscription = state.status.subscription
                if subscription == nil {
                    state.pendingDemand += 1
                }
                lock.unlock()
                subscription?.request(.max(1))
            }
        } onCancel: {
            self.cancel()
        }
    }
}
