import Ripple
import RippleTesting

/// Records what a subscriber receives together with the virtual time it arrived at.
final class TimedRecorder<Input, Failure: Error>: Subscriber, @unchecked Sendable {
    private let scheduler: TestScheduler<VirtualTime, Never>
    private let log = Locked<[(VirtualTime, Event<Input>)]>([])
    private let subscription = Locked<(any Subscription)?>(nil)
    private let initialDemand: Subscribers.Demand?

    init(_ scheduler: TestScheduler<VirtualTime, Never>, demand: Subscribers.Demand? = .unlimited) {
        self.scheduler = scheduler
        initialDemand = demand
    }

    /// Values with the instant (in milliseconds) they arrived.
    var timedValues: [(Int, Input)] {
        log.current.compactMap { time, event in
            if case .value(let value) = event { (time.nanoseconds / 1_000_000, value) } else { nil }
        }
    }

    var events: [Event<Input>] { log.current.map(\.1) }

    /// When the completion arrived (milliseconds), if it did.
    var completionTime: Int? {
        log.current.first { _, event in
            switch event {
            case .finished, .failure: true
            default: false
            }
        }.map { $0.0.nanoseconds / 1_000_000 }
    }

    func receive(subscription: any Subscription) {
        self.subscription.withLock { $0 = subscription }
        log.withLock { $0.append((scheduler.now, .subscription)) }
        if let initialDemand { subscription.request(initialDemand) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        log.withLock { $0.append((scheduler.now, .value(input))) }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        let event: Event<Input> =
            switch completion {
            case .finished: .finished
            case .failure(let error): .failure(String(describing: error))
            }
        log.withLock { $0.append((scheduler.now, event)) }
    }

    func request(_ demand: Subscribers.Demand) { subscription.current?.request(demand) }
    func cancel() { subscription.current?.cancel() }
}
