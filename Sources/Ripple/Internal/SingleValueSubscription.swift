/// Delivers one value and `.finished` on the first positive request (Just, Optional.Publisher,
/// Result.Publisher). Cancelling before that — even from inside `receive(subscription:)` —
/// suppresses both.
final class SingleValueSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible {
    private let lock = Lock()
    /// `nil` once delivered or cancelled. Guarded by `lock`.
    private var pending: (downstream: Downstream, value: Downstream.Input)?
    /// Set by `cancel()`. Guarded by `lock`.
    private var cancelled = false
    private let name: String

    init(downstream: Downstream, value: Downstream.Input, name: String) {
        pending = (downstream, value)
        self.name = name
    }

    var description: String { name }

    func request(_ demand: Subscribers.Demand) {
        require(demand > 0, "\(name): demand must be greater than zero (got \(demand))")
        lock.lock()
        let taken = pending
        pending = nil
        lock.unlock()
        guard let (downstream, value) = taken else { return }
        _ = downstream.receive(value)
        // Differs from Combine: a cancel made inside `receive(_:)` also stops the `.finished`
        // (Combine's Just still sends it); no delivery follows a returned `cancel()`.
        guard !lock.withLock({ cancelled }) else { return }
        downstream.receive(completion: .finished)
    }

    func cancel() {
        lock.lock()
        let released = pending
        pending = nil
        cancelled = true
        lock.unlock()
        _ = released
    }
}
