import Foundation
import PostgresNIO
import Ripple

extension PostgresStream {
    /// A publisher of a stream's values from a position (or a consumer's stored position), then live.
    ///
    /// Follows Combine's subscriber contract: `receive(subscription:)` first, on the subscribing
    /// thread; no value beyond the demand requested; no two calls to the subscriber overlap;
    /// `cancel()` stops the subscription, releases the subscriber and, when it was the channel's last
    /// listener of the client, issues `UNLISTEN`.
    ///
    /// Values and the completion are delivered from a task of the subscription's own on Swift's
    /// global concurrent executor (one call at a time, not on any particular thread or event loop):
    /// use `receive(on:)` to move them to a queue, a run loop or the main actor.
    ///
    /// The publisher never finishes; it fails only with ``PostgresStreamError``.
    public struct Publisher: Ripple.Publisher, Sendable {
        /// The stream's events.
        public typealias Output = StreamEvent<Value>
        /// Undecodable values and queries refused for good.
        public typealias Failure = PostgresStreamError

        let stream: PostgresStream
        let start: Start

        enum Start: Sendable {
            case position(StreamPosition)
            case consumer(PostgresConsumer<Value>, PostgresConsumer<Value>.CommitPolicy, ifNone: StreamPosition)
        }

        /// Attaches `subscriber`: it receives the subscription at once, and values as it demands them.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let subscription = StreamSubscription(stream: stream, start: start, subscriber: AnySubscriber(subscriber))
            subscriber.receive(subscription: subscription)
            subscription.start()
        }
    }
}

/// One subscription to a stream: a task that listens, catches up with the subscriber's demand as
/// the query's limit, and waits for notifications.
final class StreamSubscription<Value: Codable & Sendable>: Subscription, @unchecked Sendable {
    // @unchecked: every mutable field is in `state`; `subscriber` is only called by the pump task, one
    // call at a time. The subscriber is type-erased so that the pump's task captures no type of the
    // subscriber's (whose metatype need not be Sendable).
    typealias S = AnySubscriber<StreamEvent<Value>, PostgresStreamError>

    private struct State {
        var subscriber: S?
        var demand = Subscribers.Demand.none
        var finished = false
        var pump: Task<Void, Never>?
        /// The newest offset a notification announced.
        var announced: Int64 = 0
        /// The offset of the last value delivered (or where the subscription starts).
        var last: Int64 = 0
    }

    let combineIdentifier = CombineIdentifier()
    private let stream: PostgresStream<Value>
    private let startPoint: PostgresStream<Value>.Publisher.Start
    private let state: Locked<State>
    private let wakeUp = WakeUp()
    private let decoder = JSONDecoder()
    /// How long the pump waits without a notification before it reads anyway.
    private let pollInterval = Duration.seconds(5)

    init(stream: PostgresStream<Value>, start: PostgresStream<Value>.Publisher.Start, subscriber: S) {
        self.stream = stream
        self.startPoint = start
        self.state = Locked(State(subscriber: subscriber))
    }

    func start() {
        let task = Task { [self] in await pump() }
        let cancelled = state.withLock { state -> Bool in
            if state.finished { return true }
            state.pump = task
            return false
        }
        if cancelled { task.cancel() }
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand > .none else {
            fatalError("PostgresStream.Publisher: demand must be greater than zero (requested \(demand))")
        }
        state.withLock { state in
            guard !state.finished else { return }
            state.demand += demand
        }
        wakeUp.signal()
    }

    func cancel() {
        let (task, subscriber) = state.withLock { state -> (Task<Void, Never>?, S?) in
            state.finished = true
            defer { state.subscriber = nil; state.pump = nil }
            return (state.pump, state.subscriber)
        }
        task?.cancel()
        wakeUp.close()
        withExtendedLifetime(subscriber) {}  // released here, outside the lock
    }

    private var isFinished: Bool { state.withLock { $0.finished } }

    /// Retries `operation` with the client's backoff while it fails for a connection's sake.
    private func retrying<T>(_ operation: () async throws -> T) async throws -> T {
        var attempt = 0
        while true {
            do {
                return try await operation()
            } catch where isRetryable(error) && !isFinished && !Task.isCancelled {
                try await Task.sleep(for: stream.client.configuration.reconnectBackoff.delay(attempt: attempt))
                attempt += 1
            }
        }
    }

    private func pump() async {
        var token: ListenToken?
        defer { if let token { stream.client.listener.unlisten(token) } }
        do {
            // LISTEN before the first read: anything committed after it is announced.
            token = try await retrying {
                try await stream.client.listener.listen(stream.channel) { [weak self] event in
                    self?.heard(event)
                }
            }
            let first = try await retrying { try await startOffset() }
            state.withLock { $0.last = first }
            while !isFinished {
                let outcome = try await retrying { try await catchUp() }
                switch outcome {
                case .ended:
                    return
                case .outOfDemand:
                    await wakeUp.wait(timeout: pollInterval)
                case .caughtUp:
                    // Wait for a notification, unless one already announced more.
                    let (announced, last) = state.withLock { ($0.announced, $0.last) }
                    if announced <= last { await wakeUp.wait(timeout: pollInterval) }
                }
            }
        } catch is CancellationError {
        } catch {
            finish(.failure(.queryFailed(describe(error))))
        }
    }

    private enum Outcome: Sendable { case caughtUp, outOfDemand, ended }

    /// Reads and delivers while there is demand and more to read, on one pooled connection (given
    /// back when caught up or out of demand): each read's limit is the outstanding demand, capped by
    /// the page size.
    private func catchUp() async throws -> Outcome {
        let demand = state.withLock { $0.demand }
        guard demand > .none else { return .outOfDemand }
        // The lease is bounded (asked again while the pool leaves it waiting); the catch-up is not.
        return try await stream.client.withLeasedConnection("catch-up of \"\(stream.name)\"", timeout: nil) {
            [self] connection -> Outcome in
            while true {
                let (demand, last, finished) = state.withLock { ($0.demand, $0.last, $0.finished) }
                if finished { return .ended }
                guard demand > .none else { return .outOfDemand }
                let limit = demand.max.map { min($0, stream.pageSize) } ?? stream.pageSize
                let rows = try await stream.read(after: last, limit: limit, on: connection)
                for (offset, json) in rows {
                    switch stream.decode(json, offset: offset, with: decoder) {
                    case .success(let event):
                        guard deliver(event) else { return .ended }
                        try await commitIfAsked(offset, on: connection)
                    case .failure(let error):
                        finish(.failure(error))
                        return .ended
                    }
                }
                if rows.count < limit { return .caughtUp }
            }
        }
    }

    private func startOffset() async throws -> Int64 {
        switch startPoint {
        case .position(let position):
            return try await offset(of: position)
        case .consumer(let consumer, _, let ifNone):
            if let stored = try await consumer.storedPosition() { return stored }
            return try await offset(of: ifNone)
        }
    }

    private func offset(of position: StreamPosition) async throws -> Int64 {
        switch position {
        case .beginning: 0
        case .after(let offset): offset
        case .now: try await stream.latestOffset()
        }
    }

    private func commitIfAsked(_ offset: Int64, on connection: PostgresConnection) async throws {
        guard case .consumer(let consumer, .afterEachDelivery, _) = startPoint else { return }
        try await consumer.commit(offset, on: connection)
    }

    private func heard(_ event: ListenerEvent) {
        switch event {
        case .notification(let payload):
            if let offset = Int64(payload) {
                state.withLock { $0.announced = max($0.announced, offset) }
            }
            wakeUp.signal()
        case .reconnected:
            // Whatever was notified while disconnected is read now.
            wakeUp.signal()
        case .connectionLost:
            break
        }
    }

    /// Sends one value within the demand; false when the subscription has ended.
    private func deliver(_ event: StreamEvent<Value>) -> Bool {
        let subscriber = state.withLock { state -> S? in
            guard !state.finished, let subscriber = state.subscriber else { return nil }
            state.demand -= 1
            state.last = event.offset
            return subscriber
        }
        guard let subscriber else { return false }
        let more = subscriber.receive(event)
        return state.withLock { state -> Bool in
            guard !state.finished else { return false }
            if more > .none { state.demand += more }
            return true
        }
    }

    private func finish(_ completion: Subscribers.Completion<PostgresStreamError>) {
        let subscriber = state.withLock { state -> S? in
            guard !state.finished else { return nil }
            state.finished = true
            defer { state.subscriber = nil; state.pump = nil }
            return state.subscriber
        }
        subscriber?.receive(completion: completion)
    }
}
