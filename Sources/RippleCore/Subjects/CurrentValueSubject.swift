/// A subject that wraps a single value and publishes a new element whenever the value changes.
///
/// A new subscriber receives the current value on its first demand, then every later one. Every
/// ``send(_:)`` and every assignment to ``value`` publishes, equal to the previous value or not.
///
/// ```swift
/// let temperature = CurrentValueSubject<Int, Never>(20)
/// let cancellable = temperature.sink { print("now", $0) }
/// temperature.value = 21
/// // Prints "now 20", then "now 21"
/// ```
///
/// With zero demand a subscriber keeps only the latest value, delivered on its next request.
///
/// Lifetime: as in Combine, each subscription keeps the subject alive until it is cancelled or the
/// subject completes; with its last subscription gone, it is released.
///
/// Thread safety: every method may be called from any thread. Values reach subscribers in
/// subscription order, on the thread that sent them, and calls to one subscriber never overlap, as
/// with ``PassthroughSubject``.
///
/// Differs from Combine: subscribers are served in subscription order (Combine documents no order);
/// threads waiting for a busy subscriber are served first come, first served (as in Combine, a
/// second thread that sends or assigns ``value`` while the subscriber is busy waits its turn, and
/// each value runs on its sender's thread); and two threads that each deliver into a subscriber the
/// other is delivering to stop with a "Ripple: deadlock:" message instead of hanging.
public final class CurrentValueSubject<Output, Failure: Error>: Subject, Sendable {
    @usableFromInline let core: SubjectCore<Output, Failure>

    /// Creates a subject with the given initial value.
    @inlinable
    public init(_ value: Output) {
        core = SubjectCore(current: value)
    }

    deinit {
        core.cancelUpstreams()
    }

    /// The value wrapped by this subject, published as a new element whenever it changes.
    ///
    /// After completion, assigning still stores the value (and publishes nothing).
    @inlinable
    public var value: Output {
        get {
            core.lock.lock()
            defer { core.lock.unlock() }
            return core.state.current!
        }
        set {
            core.send(newValue, storeAfterCompletion: true)
        }
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        core.receive(subscriber: subscriber, keeping: self)
    }

    /// Stores `input` as the current value and sends it to every subscriber with demand.
    /// After completion it does nothing (``value`` keeps its last value).
    @inlinable
    public func send(_ input: Output) {
        core.send(input)
    }

    /// Sends a completion signal to every subscriber. Only the first completion counts.
    @inlinable
    public func send(completion: Subscribers.Completion<Failure>) {
        core.send(completion: completion)
    }

    /// Takes an upstream subscription and asks it for `.unlimited` at once; it is cancelled when the
    /// subject is deallocated.
    public func send(subscription: any Subscription) {
        core.send(subscription: subscription)
    }
}

extension CurrentValueSubject: _SubjectBacked {
    /// Attaches the closures to this subject's conduit (used by `sink`).
    @inlinable
    public func _attachSink(
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        core.attachSink(receiveCompletion: receiveCompletion, keeping: self, receiveValue: receiveValue)
    }
}
