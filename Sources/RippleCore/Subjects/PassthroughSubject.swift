/// A subject that broadcasts elements to downstream subscribers.
///
/// Unlike ``CurrentValueSubject``, a `PassthroughSubject` has no initial value and keeps none:
/// a subscriber with no outstanding demand simply misses the value.
///
/// ```swift
/// let subject = PassthroughSubject<String, Never>()
/// let cancellable = subject.sink { print("got", $0) }
/// subject.send("hello")
/// // Prints "got hello"
/// ```
///
/// Lifetime: as in Combine, each subscription keeps the subject alive until it is cancelled or the
/// subject completes, so a subject that only its subscribers (and weak references) keep goes on
/// delivering; with its last subscription gone, it is released.
///
/// Thread safety: every method may be called from any thread. Values reach subscribers in
/// subscription order, on the thread that sent them, and calls to one subscriber never overlap: a
/// thread that finds a subscriber busy on another thread waits its turn (see ``send(_:)``).
///
/// Differs from Combine: subscribers are served in subscription order (Combine documents no order;
/// OpenCombine uses hash order); threads waiting for a busy subscriber are served first come, first
/// served (as in Combine, a second thread that sends while the subscriber is busy waits its turn, and
/// each value runs on its sender's thread); and two threads that each deliver into a subscriber the
/// other is delivering to stop with a "Ripple: deadlock:" message instead of hanging.
public final class PassthroughSubject<Output, Failure: Error>: Subject, Sendable {
    @usableFromInline let core = SubjectCore<Output, Failure>(current: nil)

    /// Creates a subject.
    @inlinable
    public init() {}

    deinit {
        core.cancelUpstreams()
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        core.receive(subscriber: subscriber, keeping: self)
    }

    /// Sends a value to every subscriber that has outstanding demand.
    ///
    /// The value is delivered on the calling thread. A subscriber that another thread is delivering
    /// to gets it after that call returns (this thread waits its turn, first come, first served); a
    /// subscriber sending to the same subject from inside `receive` gets the new value at once,
    /// nested. After completion, `send` does nothing.
    @inlinable
    public func send(_ input: Output) {
        core.send(input)
    }

    /// Sends a completion signal to every subscriber. Only the first completion counts.
    @inlinable
    public func send(completion: Subscribers.Completion<Failure>) {
        core.send(completion: completion)
    }

    /// Takes an upstream subscription; it is asked for `.unlimited` once any subscriber of this
    /// subject has demand, and cancelled when the subject is deallocated.
    public func send(subscription: any Subscription) {
        core.send(subscription: subscription)
    }
}

extension PassthroughSubject: _SubjectBacked {
    /// Attaches the closures to this subject's conduit (used by `sink`).
    @inlinable
    public func _attachSink(
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        core.attachSink(receiveCompletion: receiveCompletion, keeping: self, receiveValue: receiveValue)
    }
}
