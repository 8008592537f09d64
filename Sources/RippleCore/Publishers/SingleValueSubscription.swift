/// Delivers one value and `.finished` on the first positive request (Just, Optional.Publisher,
/// Result.Publisher). Cancelling before that — even from inside `receive(subscription:)` —
/// suppresses both.
///
/// Described as Combine describes it: "Just", "Optional" or "Once" (Result's), with the value as
/// its one reflected child.
final class SingleValueSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    private let lock = Lock()
    /// `nil` once delivered or cancelled. Guarded by `lock`.
    private var downstream: Downstream?
    /// Set by `cancel()`. Guarded by `lock`.
    private var cancelled = false
    private let value: Downstream.Input
    private let name: String

    init(downstream: Downstream, value: Downstream.Input, name: String) {
        self.downstream = downstream
        self.value = value
        self.name = name
    }

    var description: String { name }
    var customMirror: Mirror { Mirror(self, unlabeledChildren: CollectionOfOne(value)) }
    var playgroundDescription: Any { description }

    func request(_ demand: Subscribers.Demand) {
        require(demand > 0, "\(name): demand must be greater than zero (got \(demand))")
        lock.lock()
        let taken = downstream
        downstream = nil
        lock.unlock()
        guard let taken else { return }
        _ = taken.receive(value)
        // Differs from Combine: a cancel made inside `receive(_:)` also stops the `.finished`
        // (Combine's Just still sends it); no delivery follows a returned `cancel()`.
        guard !lock.withLock({ cancelled }) else { return }
        taken.receive(completion: .finished)
    }

    func cancel() {
        lock.lock()
        let released = downstream
        downstream = nil
        cancelled = true
        lock.unlock()
        _ = released
    }
}
