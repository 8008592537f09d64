/// A publisher that publishes changes from observable objects.
///
/// It emits `Void` before an object changes and never completes. The synthesized
/// `ObservableObject.objectWillChange` of a class is one instance of this type, created on
/// first access and kept for the object's lifetime.
///
/// As in Combine, once a subscriber has made a request, every ``send()`` reaches it, whatever it
/// requested (a subscriber that requested `.max(1)` once still receives each change). A subscriber
/// that has requested nothing receives nothing.
///
/// ```swift
/// let publisher = ObservableObjectPublisher()
/// let cancellable = publisher.sink { print("will change") }
/// publisher.send()
/// // Prints "will change"
/// ```
public final class ObservableObjectPublisher: Publisher, Sendable {
    public typealias Output = Void
    public typealias Failure = Never

    @usableFromInline
    let core = SubjectCore<Void, Never>(current: nil, ignoresDemand: true)

    /// Creates an observable object publisher instance.
    @inlinable
    public init() {}

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Void, S.Failure == Never {
        core.receive(subscriber: subscriber)
    }

    /// Sends the changed value to the downstream subscribers.
    @inlinable
    public func send() {
        core.send(())
    }

    /// Attaches a closure-based subscriber (the same behaviour as the generic `sink`, one object
    /// fewer).
    @inlinable
    public func sink(receiveValue: @escaping () -> Void) -> AnyCancellable {
        if diagnosticsAreOn {
            // Out of line and unspecialized: the client's code for the usual path stays as it was.
            return DiagnosticsRecording.recordedSubjectSink(on: self, receiveCompletion: nil, receiveValue: receiveValue)
        }
        return core.attachSink(receiveCompletion: nil, receiveValue: receiveValue)
    }
}

extension ObservableObjectPublisher: _SubjectBacked {
    /// Attaches the closures to this publisher's conduit (used by `sink`).
    @inlinable
    public func _attachSink(
        receiveCompletion: ((Subscribers.Completion<Never>) -> Void)?,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        core.attachSink(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
    }
}
