extension Publisher where Failure == Never {
    /// Republishes elements received from a publisher, by assigning them to a property marked as a
    /// publisher.
    ///
    /// ```swift
    /// final class Clock: ObservableObject {
    ///     @Published var tick = 0
    ///     init(ticks: some Publisher<Int, Never>) {
    ///         ticks.assign(to: &$tick)
    ///     }
    /// }
    /// ```
    ///
    /// The subscription requests `.unlimited`, lives exactly as long as the property's object (no
    /// `AnyCancellable` to keep), and each assignment behaves like a normal write (will-change
    /// first). An upstream completion ends the subscription but does not complete `$property`.
    public func assign(to published: inout Published<Output>.Publisher) {
        let box = published.box
        let subscriber = AssignToPublished(box: box)
        if diagnosticsAreOn {
            DiagnosticsRecording.recordObject(on: self, subscriber: subscriber, description: "Assign") {
                ($0 as? AssignToPublished<Output>)?.isSubscribed == true
            }
        }
        receive(subscriber: subscriber)
        box.keep(AnyCancellable(object: subscriber))
    }
}

/// Writes every value into a `@Published` property's storage, holding the storage weakly so the
/// object (and with it the subscription) can go away.
final class AssignToPublished<Value>: Subscriber, Cancellable, CustomStringConvertible, @unchecked Sendable {
    typealias Input = Value
    typealias Failure = Never

    private let lock = Lock()
    private var status = UpstreamStatus.awaitingSubscription
    private weak var box: PublishedBox<Value>?

    init(box: PublishedBox<Value>) {
        self.box = box
    }

    var description: String { "Assign" }

    /// Whether it has not been cancelled or completed (for ``RippleDiagnostics``).
    var isSubscribed: Bool {
        lock.withLock { !status.isTerminal }
    }

    func receive(subscription: any Subscription) {
        lock.lock()
        let accepted = status.accept(subscription)
        lock.unlock()
        guard accepted else {
            subscription.cancel()
            return
        }
        subscription.request(.unlimited)
    }

    func receive(_ input: Value) -> Subscribers.Demand {
        lock.lock()
        guard case .subscribed = status else {
            lock.unlock()
            return .none
        }
        let box = self.box
        lock.unlock()
        box?.assign(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) {
        lock.lock()
        let subscription = status.terminate()
        lock.unlock()
        _ = subscription  // released after unlocking
    }

    func cancel() {
        lock.lock()
        let subscription = status.terminate()
        lock.unlock()
        subscription?.cancel()
    }
}
