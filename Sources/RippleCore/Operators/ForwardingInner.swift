/// The subscriber behind stateless operators (map, filter, compactMap): it hands the upstream
/// subscription straight to the downstream — as Combine's do — and transforms each value; `nil`
/// drops the value and returns `.max(1)` upstream so the downstream's demand is still met.
///
/// A struct: no allocation per subscription, none per value, no lock (calls are serial by contract).
@usableFromInline
struct ForwardingInner<Downstream: Subscriber, Input>: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
{
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
    @usableFromInline var playgroundDescription: Any { name }
    @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }

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

extension StepInner where Downstream.Failure == any Error {
    /// The inner of `try` operators that transform or filter (tryMap, tryFilter, tryCompactMap,
    /// encode, decode …): `nil` drops the value (`.max(1)` upstream), a thrown error cancels the
    /// upstream and fails.
    static func trying(
        downstream: Downstream, name: String, mirrorsDownstream: Bool = true, trapsBeforeSubscription: Bool = false,
        transform: @escaping (Input) throws -> Downstream.Input?
    ) -> StepInner {
        StepInner(
            downstream: downstream, name: name, mirrorsDownstream: mirrorsDownstream,
            trapsBeforeSubscription: trapsBeforeSubscription, mapFailure: { $0 }
        ) {
            input in
            do {
                guard let output = try transform(input) else { return .drop }
                return .send(output)
            } catch {
                return .fail(error)
            }
        }
    }
}
