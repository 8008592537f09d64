extension Subscribers {
    /// A simple subscriber that requests an unlimited number of values upon subscription.
    ///
    /// It calls `receiveValue` for every value and `receiveCompletion` once. After completion or
    /// cancellation it releases both closures and ignores everything that still arrives.
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
    {
        @usableFromInline
        struct State {
            @usableFromInline var status = UpstreamStatus.awaitingSubscription
            @usableFromInline var receiveValue: ((Input) -> Void)?
            @usableFromInline var receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?

            @inlinable
            init(
                status: UpstreamStatus = .awaitingSubscription, receiveValue: ((Input) -> Void)? = nil,
                receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil
            ) {
                self.status = status
                self.receiveValue = receiveValue
                self.receiveCompletion = receiveCompletion
            }
        }

        @usableFromInline let lock = Lock()
        @exclusivity(unchecked) @usableFromInline var state: State

        /// The closure to execute on receipt of a value (a no-op once the sink has terminated).
        public var receiveValue: (Input) -> Void {
            lock.withLock { state.receiveValue } ?? { _ in }
        }

        /// The closure to execute on completion (a no-op once the sink has terminated).
        public var receiveCompletion: (Subscribers.Completion<Failure>) -> Void {
            lock.withLock { state.receiveCompletion } ?? { _ in }
        }

        /// Initializes a sink with the provided closures.
        @inlinable
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void
        ) {
            state = State(receiveValue: receiveValue, receiveCompletion: receiveCompletion)
        }

        /// Combine's name for it: "Sink".
        public var description: String { "Sink" }

        /// Combine's mirror of a sink: no children.
        public var customMirror: Mirror { Mirror(self, children: [:]) }

        /// The description, as Combine shows a sink in a playground.
        public var playgroundDescription: Any { description }

        @inlinable
        public func receive(subscription: any Subscription) {
            lock.lock()
            let accepted = state.status.accept(subscription)
            lock.unlock()
            guard accepted else {
                subscription.cancel()
                return
            }
            subscription.request(.unlimited)
        }

        @inlinable
        public func receive(_ value: Input) -> Subscribers.Demand {
            lock.lock()
            let receiveValue = state.receiveValue
            lock.unlock()
            receiveValue?(value)
            return .none
        }

        @inlinable
        public func receive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            let receiveCompletion = state.receiveCompletion
            let released = state
            state = State(status: .terminal)
            lock.unlock()
            receiveCompletion?(completion)
            _ = released  // closures and subscription are released here, outside the lock
        }

        /// Cancels the subscription and releases the closures. Safe to call more than once.
        @inlinable
        public func cancel() {
            lock.lock()
            guard !state.status.isTerminal else {
                lock.unlock()
                return
            }
            let released = state
            state = State(status: .terminal)
            lock.unlock()
            released.status.subscription?.cancel()
        }
    }
}

extension Publisher {
    /// Attaches a subscriber with closure-based behavior.
    ///
    /// ```swift
    /// let cancellable = Just(7).sink(
    ///     receiveCompletion: { print("done:", $0) },
    ///     receiveValue: { print("value:", $0) }
    /// )
    /// // Prints "value: 7", then "done: finished"
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
            return DiagnosticsRecording.recordedSink(on: self, receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        }
        let sink = Subscribers.Sink<Output, Failure>(
            receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        receive(subscriber: sink)
        return AnyCancellable(object: sink)
    }
}

extension Publisher where Failure == Never {
    /// Attaches a subscriber with closure-based behavior to a publisher that never fails.
    ///
    /// - Returns: A cancellable; dropping it cancels the subscription.
    @inlinable
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }
}

extension Subscribers.Sink: DiagnosedSubscriber {
    var diagnosticName: String { description }
    var diagnosticDemand: Subscribers.Demand? { .unlimited }
    var diagnosticIsSubscribed: Bool { lock.withLock { !state.status.isTerminal } }
}
