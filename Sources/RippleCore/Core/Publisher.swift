/// Declares that a type can transmit a sequence of values over time.
///
/// A publisher delivers elements to one or more ``Subscriber`` instances. The subscriber's `Input`
/// and `Failure` must match the publisher's `Output` and `Failure`. Nothing is delivered before the
/// subscriber asks for it through its ``Subscription``.
///
/// ```swift
/// let cancellable = [1, 2, 3].publisher
///     .map { $0 * 10 }
///     .sink { print($0) }
/// // Prints "10", "20", "30"
/// ```
public protocol Publisher<Output, Failure> {
    /// The kind of values published by this publisher.
    associatedtype Output
    /// The kind of errors this publisher might publish. Use `Never` if it does not publish errors.
    associatedtype Failure: Error

    /// Attaches the specified subscriber to this publisher.
    ///
    /// Implementations must call ``Subscriber/receive(subscription:)`` exactly once. Callers should
    /// use `subscribe(_:)` instead of calling this method directly.
    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure
}

extension Publisher {
    /// Attaches the specified subscriber to this publisher.
    @inlinable @inline(__always)
    public func subscribe<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
        if diagnosticsAreOn {
            // Out of line and unspecialized; the subscriber is passed on untouched either way.
            DiagnosticsRecording.recordSubscriber(subscriber, on: self)
        }
        receive(subscriber: subscriber)
    }
}
