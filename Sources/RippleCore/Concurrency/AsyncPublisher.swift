/// A publisher's elements as an `AsyncSequence` that never throws.
///
/// Each call to `next()` requests exactly one element (`.max(1)`), so a slow `for await` loop
/// applies back-pressure. The iterator owns the subscription: leaving the loop (`break`, `return`,
/// a thrown error) or dropping the iterator cancels it, and so does cancelling the iterating task
/// (`next()` then returns `nil`). Several tasks may await `next()` on one iterator at once: each
/// call requests one element, the elements go to the waiting calls in the order they were made,
/// and the completion resumes every call still waiting. As in Combine, a value that a broken
/// upstream sends before the subscription resumes every waiting call with `nil` (their demand is
/// still requested once the subscription arrives).
///
/// ```swift
/// for await value in [1, 2, 3].publisher.values {
///     print(value)
/// }
/// // Prints "1", "2", "3"
/// ```
///
/// Differs from Combine: leaving the loop or dropping the iterator cancels the subscription. In
/// Combine the iterator and its subscription keep each other alive, so a loop left with `break`
/// leaks its subscription until the publisher completes.
///
/// There is no buffer: a publisher that pushes (a subject, `$property`) while no `next()` is
/// waiting — the loop body is still running — finds no demand, and the value is dropped, as in
/// Combine. Put ``Publisher/buffer(size:prefetch:whenFull:)`` in front to keep such values:
///
/// ```swift
/// let subject = PassthroughSubject<Int, Never>()
/// let values = subject.buffer(size: 100, prefetch: .byRequest, whenFull: .dropOldest).values
/// ```
public struct AsyncPublisher<P: Publisher>: AsyncSequence where P.Failure == Never {
    /// The type of element this sequence produces: the publisher's output.
    public typealias Element = P.Output
    /// The error this sequence throws: none.
    public typealias Failure = Never

    private let publisher: P

    /// Creates a publisher that exposes elements received from an upstream publisher as an async sequence.
    public init(_ publisher: P) {
        self.publisher = publisher
    }

    /// Subscribes to the publisher and returns the iterator that owns the subscription.
    public func makeAsyncIterator() -> Iterator {
        let bridge = AsyncBridge<P.Output, Never>()
        publisher.receive(subscriber: bridge)
        return Iterator(owner: AsyncBridgeOwner(bridge))
    }

    /// The iterator that requests one element at a time; the last copy to go cancels the
    /// subscription.
    public struct Iterator: AsyncIteratorProtocol {
        /// The type of element this iterator produces.
        public typealias Element = P.Output

        fileprivate let owner: AsyncBridgeOwner<P.Output, Never>

        /// Produces the next element, or `nil` once the publisher finished or the task was cancelled.
        public mutating func next() async -> P.Output? {
            await owner.bridge.next().get()
        }

        /// Produces the next element, or `nil` once the publisher finished or the task was cancelled.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> P.Output? {
            await owner.bridge.next().get()
        }
    }
}

extension AsyncPublisher: Sendable where P: Sendable {}
extension AsyncPublisher.Iterator: Sendable where P.Output: Sendable {}

/// A publisher's elements as an `AsyncSequence` that throws the publisher's failure.
///
/// Each call to `next()` requests exactly one element. The iterator owns the subscription: leaving
/// the loop or dropping the iterator cancels it, as does cancelling the iterating task.
///
/// Differs from Combine: leaving the loop or dropping the iterator cancels the subscription (in
/// Combine it leaks until the publisher completes). Concurrent
/// `next()` calls are each resumed; a failure is thrown by the first call waiting (or the next call
/// made), the others get `nil`. Values pushed while no call is waiting are dropped, as with
/// ``AsyncPublisher``: put ``Publisher/buffer(size:prefetch:whenFull:)`` in front to keep them. A
/// value sent before the subscription resumes every waiting call with `nil`, as in Combine.
///
/// ```swift
/// struct Oops: Error {}
/// let failing = [1, 2].publisher.setFailureType(to: Oops.self).append(Fail(error: Oops()))
/// do {
///     for try await value in failing.values { print(value) }
/// } catch {
///     print("failed")
/// }
/// // Prints "1", "2", "failed"
/// ```
public struct AsyncThrowingPublisher<P: Publisher>: AsyncSequence {
    /// The type of element this sequence produces: the publisher's output.
    public typealias Element = P.Output
    /// The error this sequence throws: any error (the publisher's failure).
    public typealias Failure = any Error

    private let publisher: P

    /// Creates a publisher that exposes elements received from an upstream publisher as a throwing
    /// async sequence.
    public init(_ publisher: P) {
        self.publisher = publisher
    }

    /// Subscribes to the publisher and returns the iterator that owns the subscription.
    public func makeAsyncIterator() -> Iterator {
        let bridge = AsyncBridge<P.Output, P.Failure>()
        publisher.receive(subscriber: bridge)
        return Iterator(owner: AsyncBridgeOwner(bridge))
    }

    /// The iterator that requests one element at a time; the last copy to go cancels the
    /// subscription.
    public struct Iterator: AsyncIteratorProtocol {
        /// The type of element this iterator produces.
        public typealias Element = P.Output

        fileprivate let owner: AsyncBridgeOwner<P.Output, P.Failure>

        /// Produces the next element, `nil` once the publisher finished or the task was cancelled, or
        /// throws the publisher's failure.
        public mutating func next() async throws -> P.Output? {
            try await owner.bridge.next().get()
        }

        /// Produces the next element, `nil` once the publisher finished or the task was cancelled, or
        /// throws the publisher's failure.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> P.Output? {
            try await owner.bridge.next().get()
        }
    }
}

extension AsyncThrowingPublisher: Sendable where P: Sendable {}
extension AsyncThrowingPublisher.Iterator: Sendable where P.Output: Sendable {}

extension Publisher where Failure == Never {
    /// The elements produced by the publisher, as an asynchronous sequence.
    ///
    /// Leaving the `for await` loop cancels the subscription. Values the publisher pushes while the
    /// loop body runs are dropped; see ``AsyncPublisher`` for the `buffer` that keeps them.
    public var values: AsyncPublisher<Self> {
        AsyncPublisher(self)
    }
}

extension Publisher {
    /// The elements produced by the publisher, as a throwing asynchronous sequence.
    ///
    /// Leaving the `for try await` loop cancels the subscription. Values the publisher pushes while
    /// the loop body runs are dropped; see ``AsyncThrowingPublisher``.
    public var values: AsyncThrowingPublisher<Self> {
        AsyncThrowingPublisher(self)
    }
}

/// Held by every copy of an iterator: when the last copy goes, the subscription is cancelled.
final class AsyncBridgeOwner<Input, Failure: Error>: Sendable {
    let bridge: AsyncBridge<Input, Failure>

    init(_ bridge: AsyncBridge<Input, Failure>) {
        self.bridge = bridge
    }

    deinit {
        bridge.cancel()
    }
}
