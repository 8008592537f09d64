/// The subscriber behind stateless operators (map, filter, compactMap): it hands the upstream
/// subscription straight to the downstream and transforms each value; `nil` drops the value and
/// returns `.max(1)` upstream so the downstream's demand is still met.
///
/// A struct: no allocation per subscription, none per value, no lock (calls are serial by contract).
@usableFromInline
struct ForwardingInner<Downstream: Subscriber, Input>: Subscriber, CustomStringConvertible {
    @usableFromInline typealias Failure = Downstream.Failure

    @usableFromInline let downstream: Downstream
    @usableFromInline let name: String
    @usableFromInline let transform: (Input) -> Downstream.Input?
    @usableFromInline let combineIdentifier: CombineIdentifier

    @inlinable
    init(downstream: Downstream, name: String, transform: @escaping (Input) -> Downstream.Input?) {
        self.downstream = downstream
        self.name = name
        self.transform = transform
        self.combineIdentifier = CombineIdentifier()
    }

    @usableFromInline var description: String { name }

    @inlinable
    func receive(subscription: any Subscription) {
        downstream.receive(subscription: subscription)
    }

    @inlinable
    func receive(_ input: Input) -> Subscribers.Demand {
        guard let output = transform(input) else { return .max(1) }
        return downstream.receive(output)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Failure>) {
        downstream.receive(completion: completion)
    }
}

/// The subscriber behind `try` operators: like ``ForwardingInner``, but a thrown error cancels the
/// upstream *before* the failure is sent downstream, and everything after it is ignored.
///
/// Its state is touched only from the upstream's (serial) calls, so it needs no lock.
final class TryForwardingInner<Downstream: Subscriber, Input, UpstreamFailure: Error>: Subscriber,
    CustomStringConvertible
where Downstream.Failure == any Error {
    typealias Failure = UpstreamFailure

    private let downstream: Downstream
    private let name: String
    private let transform: (Input) throws -> Downstream.Input?
    private var upstream: (any Subscription)?
    private var terminated = false

    init(downstream: Downstream, name: String, transform: @escaping (Input) throws -> Downstream.Input?) {
        self.downstream = downstream
        self.name = name
        self.transform = transform
    }

    var description: String { name }

    func receive(subscription: any Subscription) {
        guard upstream == nil, !terminated else {
            subscription.cancel()
            return
        }
        upstream = subscription
        downstream.receive(subscription: subscription)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        guard !terminated else { return .none }
        do {
            guard let output = try transform(input) else { return .max(1) }
            return downstream.receive(output)
        } catch {
            terminated = true
            let upstream = self.upstream
            self.upstream = nil
            upstream?.cancel()
            downstream.receive(completion: .failure(error))
            return .none
        }
    }

    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        guard !terminated else { return }
        terminated = true
        upstream = nil
        downstream.receive(completion: completion.mapFailure { $0 as any Error })
    }
}
