/// What a serial operator does with one upstream value.
enum OperatorStep<Output, Failure: Error> {
    /// Send this value downstream.
    case send(Output)
    /// Drop the value; `.max(1)` goes back upstream so the downstream's demand is still met.
    case drop
    /// Cancel the upstream and finish.
    case finish
    /// Cancel the upstream and fail.
    case fail(Failure)
}

/// The subscriber behind serial operators that may end the stream early (prefix(while:), and the
/// `try` variants of stateful operators). It forwards the upstream subscription; a `.finish` or
/// `.fail` step cancels the upstream *before* the completion goes downstream, and everything after
/// it is ignored.
///
/// Its state is touched only from the upstream's serial calls, so it needs no lock.
final class StepInner<Downstream: Subscriber, Input, UpstreamFailure: Error>: Subscriber, CustomStringConvertible {
    typealias Failure = UpstreamFailure
    typealias Step = OperatorStep<Downstream.Input, Downstream.Failure>

    private let downstream: Downstream
    private let name: String
    private let step: (Input) -> Step
    private let mapFailure: (UpstreamFailure) -> Downstream.Failure
    private var status = UpstreamStatus.awaitingSubscription

    init(
        downstream: Downstream, name: String, mapFailure: @escaping (UpstreamFailure) -> Downstream.Failure,
        step: @escaping (Input) -> Step
    ) {
        self.downstream = downstream
        self.name = name
        self.step = step
        self.mapFailure = mapFailure
    }

    var description: String { name }

    func receive(subscription: any Subscription) {
        guard status.accept(subscription) else {
            subscription.cancel()
            return
        }
        downstream.receive(subscription: subscription)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        guard case .subscribed = status else { return .none }
        switch step(input) {
        case .send(let output):
            return downstream.receive(output)
        case .drop:
            return .max(1)
        case .finish:
            status.terminate()?.cancel()
            downstream.receive(completion: .finished)
        case .fail(let error):
            status.terminate()?.cancel()
            downstream.receive(completion: .failure(error))
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        guard !status.isTerminal else { return }
        status = .terminal
        downstream.receive(completion: completion.mapFailure(mapFailure))
    }
}

/// Runs a throwing step and turns a thrown error into `.fail`.
@inline(__always)
func attempt<Output>(_ body: () throws -> OperatorStep<Output, any Error>) -> OperatorStep<Output, any Error> {
    do {
        return try body()
    } catch {
        return .fail(error)
    }
}
