#if canImport(Combine)
import Combine
#endif

// A CombineExt-style operator: `AnyPublisher.create` turns a callback API into a publisher that
// honours demand and cancellation. Written the way CombineExt writes it, with module-qualified names.

/// What the closure given to `AnyPublisher.create` sends through.
public struct Emitter<Output, Failure: Swift.Error> {
    fileprivate let onValue: (Output) -> Void
    fileprivate let onCompletion: (Combine.Subscribers.Completion<Failure>) -> Void

    /// Sends a value downstream (dropped if downstream has not asked for it).
    public func send(_ value: Output) { onValue(value) }

    /// Completes the publisher.
    public func send(completion: Combine.Subscribers.Completion<Failure>) { onCompletion(completion) }
}

extension AnyPublisher {
    /// A publisher that runs `factory` for each subscriber; the returned cancellable is cancelled
    /// with the subscription.
    public static func create(
        _ factory: @escaping (Emitter<Output, Failure>) -> any Combine.Cancellable
    ) -> AnyPublisher<Output, Failure> {
        Publishers.Create(factory: factory).eraseToAnyPublisher()
    }
}

extension Publishers {
    /// The publisher behind `AnyPublisher.create`.
    public struct Create<Output, Failure: Swift.Error>: Combine.Publisher {
        let factory: (Emitter<Output, Failure>) -> any Combine.Cancellable

        public func receive<S: Combine.Subscriber>(subscriber: S)
        where S.Input == Output, S.Failure == Failure {
            let subscription = CreateSubscription(downstream: subscriber)
            subscriber.receive(subscription: subscription)
            subscription.start(factory)
        }
    }
}

private final class CreateSubscription<Downstream: Combine.Subscriber>: Combine.Subscription {
    private var downstream: Downstream?
    private var demand: Combine.Subscribers.Demand = .none
    private var cancellable: (any Combine.Cancellable)?

    init(downstream: Downstream) { self.downstream = downstream }

    func start(_ factory: (Emitter<Downstream.Input, Downstream.Failure>) -> any Combine.Cancellable) {
        let emitter = Emitter<Downstream.Input, Downstream.Failure>(
            onValue: { [weak self] value in self?.forward(value) },
            onCompletion: { [weak self] completion in self?.finish(completion) })
        let token = factory(emitter)
        if downstream == nil { token.cancel() } else { cancellable = token }
    }

    private func forward(_ value: Downstream.Input) {
        guard let downstream, demand > 0 else { return }
        demand -= 1
        demand += downstream.receive(value)
    }

    private func finish(_ completion: Combine.Subscribers.Completion<Downstream.Failure>) {
        guard let downstream else { return }
        self.downstream = nil
        downstream.receive(completion: completion)
        cancellable = nil
    }

    func request(_ demand: Combine.Subscribers.Demand) {
        self.demand += demand
    }

    func cancel() {
        downstream = nil
        cancellable?.cancel()
        cancellable = nil
    }
}
