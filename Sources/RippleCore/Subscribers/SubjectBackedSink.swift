/// A publisher whose values come straight from a subject — a subject itself, or stateless operators
/// (`map`, `filter`, `compactMap`, a key-path `map`) over one — so that `sink` can attach its closures
/// to the subject's conduit: no ``Subscribers/Sink`` in between, and no lock, retain or closure
/// wrapper per value.
///
/// Observably the same as the generic `sink`: unlimited demand, values in order, the completion
/// once, the closures released on completion or cancel, nothing delivered after cancel, and the
/// same re-entrancy (a closure that sends to its own subject gets the value nested).
///
/// An implementation detail of `sink`, public only because the `sink` overloads below are. Do not
/// conform your own types: its requirement may change.
public protocol _SubjectBacked: Publisher {
    /// Attaches the closures to the subject behind this publisher, with unlimited demand.
    ///
    /// `receiveCompletion` is `nil` for `sink(receiveValue:)`.
    func _attachSink(
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable
}

extension _SubjectBacked {
    /// Attaches a subscriber with closure-based behavior (see
    /// ``Publisher/sink(receiveCompletion:receiveValue:)``), directly to the subject behind this
    /// publisher.
    ///
    /// ```swift
    /// let subject = PassthroughSubject<Int, Never>()
    /// let cancellable = subject.map { $0 * 10 }.filter { $0 > 10 }.sink(
    ///     receiveCompletion: { print("done:", $0) },
    ///     receiveValue: { print("value:", $0) }
    /// )
    /// subject.send(1)
    /// subject.send(2)
    /// subject.send(completion: .finished)
    /// // Prints "value: 20", then "done: finished"
    /// ```
    ///
    /// - Returns: A cancellable; dropping it cancels the subscription.
    @inlinable
    public func sink(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        if diagnosticsAreOn {
            // Out of line and unspecialized: the client's code for the usual path stays as it was.
            return DiagnosticsRecording.recordedSubjectSink(on: self, receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        }
        return _attachSink(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
    }
}

extension _SubjectBacked where Failure == Never {
    /// Attaches a subscriber with closure-based behavior to a publisher that never fails (see
    /// ``Publisher/sink(receiveValue:)``), directly to the subject behind this publisher.
    ///
    /// - Returns: A cancellable; dropping it cancels the subscription.
    @inlinable
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        if diagnosticsAreOn {
            // Out of line and unspecialized: the client's code for the usual path stays as it was.
            return DiagnosticsRecording.recordedSubjectSink(on: self, receiveCompletion: nil, receiveValue: receiveValue)
        }
        return _attachSink(receiveCompletion: nil, receiveValue: receiveValue)
    }
}
