// The recorded forms of Ripple's two `sink`s, beside the subscribers they make (the recording
// itself, which the subscribe paths below call, is in Core/DiagnosticsRecording.swift).

extension DiagnosticsRecording {
    /// `sink` on any publisher, recorded: a ``Subscribers/Sink`` given counting closures. Not
    /// inlinable, so that the client's specialized code for the unrecorded path is not duplicated
    /// here. Reached only while diagnostics are on.
    @usableFromInline
    static func recordedSink<P: Publisher>(
        on publisher: P, receiveCompletion: @escaping (Subscribers.Completion<P.Failure>) -> Void,
        receiveValue: @escaping (P.Output) -> Void
    ) -> AnyCancellable {
        recordSink(on: publisher, receiveCompletion: receiveCompletion, receiveValue: receiveValue) {
            probe, receiveCompletion, receiveValue in
            let sink = Subscribers.Sink<P.Output, P.Failure>(
                receiveCompletion: receiveCompletion ?? { _ in }, receiveValue: receiveValue)
            // So that a publisher of the user's that passes the sink on to `subscribe(_:)` does
            // not record it a second time.
            SubscriptionRegistry.shared.identify(probe: probe, as: sink)
            publisher.receive(subscriber: sink)
            return AnyCancellable(object: sink)
        }
    }

    /// `sink` on a subject-backed publisher, recorded: its closures, counting, attached to the
    /// subject's conduit. Reached only while diagnostics are on.
    @usableFromInline
    static func recordedSubjectSink<P: _SubjectBacked>(
        on publisher: P, receiveCompletion: ((Subscribers.Completion<P.Failure>) -> Void)?,
        receiveValue: @escaping (P.Output) -> Void
    ) -> AnyCancellable {
        recordSink(on: publisher, receiveCompletion: receiveCompletion, receiveValue: receiveValue) {
            publisher._attachSink(receiveCompletion: $1, receiveValue: $2)
        }
    }
}
