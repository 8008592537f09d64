extension Publishers {
    /// A publisher that appears to send a specified failure type. Its upstream never fails.
    public struct SetFailureType<Upstream: Publisher, Failure: Error>: Publisher where Upstream.Failure == Never {
        public typealias Output = Upstream.Output

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Creates a `SetFailureType` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream) {
            self.upstream = upstream
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: FailureMappingInner(downstream: subscriber, name: "SetFailureType") { never -> Failure in })
        }

        /// Changes the failure type again; the upstream is unchanged.
        public func setFailureType<E: Error>(to failure: E.Type) -> Publishers.SetFailureType<Upstream, E> {
            Publishers.SetFailureType(upstream: upstream)
        }
    }
}

extension Publishers.SetFailureType: Equatable where Upstream: Equatable {}

extension Publisher where Failure == Never {
    /// Changes the failure type declared by the upstream publisher, so it can be combined with
    /// publishers that can fail.
    public func setFailureType<E: Error>(to failureType: E.Type) -> Publishers.SetFailureType<Self, E> {
        Publishers.SetFailureType(upstream: self)
    }
}

/// Forwards subscription and values unchanged and maps a failure (mapError, setFailureType).
struct FailureMappingInner<Downstream: Subscriber, UpstreamFailure: Error>: Subscriber, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    typealias Input = Downstream.Input
    typealias Failure = UpstreamFailure

    let downstream: Downstream
    var name = "MapError"
    let transform: (UpstreamFailure) -> Downstream.Failure
    let combineIdentifier = CombineIdentifier()

    var description: String { name }
    var playgroundDescription: Any { name }
    var customMirror: Mirror { Mirror(self, children: [:]) }

    func receive(subscription: any Subscription) {
        downstream.receive(subscription: subscription)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        downstream.receive(input)
    }

    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        downstream.receive(completion: completion.mapFailure(transform))
    }
}
