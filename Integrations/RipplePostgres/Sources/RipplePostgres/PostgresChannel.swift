import Foundation
import PostgresNIO
import Ripple

/// An ephemeral channel: `Payload`s sent as JSON with `NOTIFY` and received by the subscribers
/// listening at that moment — nothing is stored, nothing is replayed.
///
/// The publisher issues `LISTEN` on the client's shared connection at the first subscription and
/// `UNLISTEN` after the last cancel. What it cannot guarantee it says, never silently:
/// - **Back-pressure.** `NOTIFY` cannot be slowed down. Each subscription keeps at most
///   `bufferSize` messages waiting for demand; a message arriving at a full buffer is dropped (the
///   newest is dropped, as `buffer(size:prefetch:whenFull: .dropNewest)` does) and a
///   ``ChannelGap/bufferOverflow(dropped:)`` event takes its place after the buffered ones, counting
///   every message dropped there.
/// - **Reconnects.** Messages notified while the `LISTEN` connection was down are lost for good; when
///   the client listens again the subscription receives ``ChannelGap/reconnected`` at that point.
///
/// For values that must not be lost, use a ``PostgresStream``.
public struct PostgresChannel<Payload: Codable & Sendable>: Ripple.Publisher, Sendable {
    /// Messages, and the points where some could not be delivered.
    public typealias Output = Event
    /// A payload that does not decode as `Payload`.
    public typealias Failure = PostgresChannelError

    /// The channel's name.
    public let name: String
    /// The client the channel uses.
    public let client: PostgresEventClient
    /// How many messages a subscription without demand keeps waiting.
    public let bufferSize: Int

    init(client: PostgresEventClient, name: String, bufferSize: Int) throws {
        try validateName(name)
        guard bufferSize > 0 else { throw PostgresEventError.invalidName("bufferSize \(bufferSize)") }
        self.client = client
        self.name = name
        self.bufferSize = bufferSize
    }

    /// Sends `payload` to the subscribers listening now (`NOTIFY`).
    ///
    /// - Throws: ``PostgresEventError/payloadTooLarge(channel:bytes:)`` before anything is sent when
    ///   the JSON is 8,000 bytes or longer.
    public func send(_ payload: Payload) async throws {
        try await client.notify(channel: name, payload: payload)
    }

    /// Attaches `subscriber`: it receives the subscription at once, then ``Event/listening``
    /// when `LISTEN` is in effect, then the messages.
    ///
    /// The order of events, for every subscriber — the first of a channel and one joining a channel
    /// the client already listens to alike: `.listening` first, always, before any `.message` or
    /// `.gap`; then messages in the order the server delivered them, with a gap wherever some were
    /// lost. A message that reaches the client while this subscription's `LISTEN` is being confirmed
    /// is delivered too, after `.listening` (it counts against demand like every event).
    ///
    /// Follows Combine's subscriber contract (no value beyond demand, no overlapping calls, `cancel()`
    /// releases the subscriber). Events are delivered on the thread that makes them deliverable: the
    /// `LISTEN` connection's event loop for an event that finds demand waiting, the thread calling
    /// `request(_:)` for buffered ones. Keep the subscriber short, or use `receive(on:)`.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let subscription = ChannelSubscription(channel: self, subscriber: AnySubscriber(subscriber))
        subscriber.receive(subscription: subscription)
        subscription.start()
    }
}


extension PostgresChannel {
    /// One event of an ephemeral channel.
    public enum Event: Sendable {
        /// `LISTEN` is in effect: every message notified from now on is delivered, or a gap says
        /// where some were not. The first event of every subscription: no `.message` or `.gap`
        /// comes before it.
        case listening
        /// A message.
        case message(Payload)
        /// Messages may have been lost here.
        case gap(ChannelGap)

        /// The message, if this event is one.
        public var message: Payload? {
            if case .message(let payload) = self { payload } else { nil }
        }
    }
}

extension PostgresChannel.Event: Equatable where Payload: Equatable {}

/// Where and why an ephemeral channel may have lost messages.
public enum ChannelGap: Sendable, Equatable {
    /// The `LISTEN` connection was lost and made again: anything notified in between is lost.
    case reconnected
    /// The subscriber's buffer was full: `dropped` messages were dropped here.
    case bufferOverflow(dropped: Int)
}

/// Why an ephemeral channel's subscription failed.
public enum PostgresChannelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A payload that is not a JSON encoding of the channel's type.
    case undecodable(payload: String, reason: String)

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .undecodable(let payload, let reason): "the payload \(payload.prefix(200)) does not decode: \(reason)"
        }
    }
}

final class ChannelSubscription<Payload: Codable & Sendable>: Subscription, @unchecked Sendable {
    // @unchecked: every mutable field is in `state`; the subscriber is called only by the one
    // draining (`delivering`), one call at a time. Type-erased, so that tasks capture no type of the
    // subscriber's.
    typealias S = AnySubscriber<PostgresChannel<Payload>.Event, PostgresChannelError>

    private struct State {
        var subscriber: S?
        var demand = Subscribers.Demand.none
        var buffer: [PostgresChannel<Payload>.Event] = []
        var head = 0
        /// Messages in the buffer (gaps and `.listening` are not counted).
        var messages = 0
        var pendingCompletion: Subscribers.Completion<PostgresChannelError>?
        var delivering = false
        var finished = false
        var token: ListenToken?
        var listenTask: Task<Void, Never>?
        var lost = false
        /// Whether `.listening` is in the buffer. Until it is, nothing is delivered: the hub calls
        /// the handler from the moment it is registered — for a channel already listened to, before
        /// this subscription's `LISTEN` is confirmed — and what is heard then waits behind it.
        var listening = false
    }

    let combineIdentifier = CombineIdentifier()
    private let channel: PostgresChannel<Payload>
    private let state: Locked<State>
    private let decoder = JSONDecoder()

    init(channel: PostgresChannel<Payload>, subscriber: S) {
        self.channel = channel
        self.state = Locked(State(subscriber: subscriber))
    }

    func start() {
        let task = Task { [weak self] () -> Void in await self?.listen() }
        let cancelled = state.withLock { state -> Bool in
            if state.finished { return true }
            state.listenTask = task
            return false
        }
        if cancelled { task.cancel() }
    }

    /// Registers with the client's hub — retrying with the client's backoff while the `LISTEN`
    /// connection fails — and, once `LISTEN` is confirmed, puts `.listening` ahead of anything heard
    /// meanwhile.
    private func listen() async {
        let hub = channel.client.listener
        var attempt = 0
        var token: ListenToken?
        while token == nil {
            if Task.isCancelled || state.withLock({ $0.finished }) { return }
            do {
                token = try await hub.listen(channel.name) { [weak self] in self?.heard($0) }
            } catch is CancellationError {
                return  // the client shut down, or the subscription was cancelled
            } catch {
                try? await Task.sleep(for: channel.client.configuration.reconnectBackoff.delay(attempt: attempt))
                attempt += 1
            }
        }
        guard let token else { return }
        let keep = state.withLock { state -> Bool in
            guard !state.finished else { return false }
            state.token = token
            // Nothing has been delivered yet (the drain waits for this), so the head is the front.
            state.buffer.insert(.listening, at: state.head)
            state.listening = true
            return true
        }
        guard keep else {
            hub.unlisten(token)
            return
        }
        drain()
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand > .none else {
            fatalError("PostgresChannel: demand must be greater than zero (requested \(demand))")
        }
        state.withLock { state in
            guard !state.finished else { return }
            state.demand += demand
        }
        drain()
    }

    func cancel() {
        let (token, task, subscriber) = state.withLock { state -> (ListenToken?, Task<Void, Never>?, S?) in
            state.finished = true
            defer {
                state.subscriber = nil
                state.buffer = []
                state.token = nil
                state.listenTask = nil
            }
            return (state.token, state.listenTask, state.delivering ? nil : state.subscriber)
        }
        task?.cancel()
        if let token { channel.client.listener.unlisten(token) }
        withExtendedLifetime(subscriber) {}
    }

    private func heard(_ event: ListenerEvent) {
        switch event {
        case .notification(let payload):
            do {
                let value = try decoder.decode(Payload.self, from: Data(payload.utf8))
                enqueue(.message(value), isMessage: true)
            } catch {
                fail(.undecodable(payload: payload, reason: "\(error)"))
            }
        case .connectionLost:
            state.withLock { $0.lost = true }
        case .reconnected:
            let report = state.withLock { state -> Bool in
                defer { state.lost = false }
                return state.lost
            }
            if report { enqueue(.gap(.reconnected), isMessage: false) }
        }
    }

    private func enqueue(_ event: PostgresChannel<Payload>.Event, isMessage: Bool) {
        state.withLock { state in
            guard !state.finished, state.pendingCompletion == nil else { return }
            if isMessage && state.messages >= channel.bufferSize {
                if case .gap(.bufferOverflow(let dropped)) = state.buffer.last, state.buffer.count > state.head {
                    state.buffer[state.buffer.count - 1] = .gap(.bufferOverflow(dropped: dropped + 1))
                } else {
                    state.buffer.append(.gap(.bufferOverflow(dropped: 1)))
                }
                return
            }
            state.buffer.append(event)
            if isMessage { state.messages += 1 }
        }
        drain()
    }

    private func fail(_ error: PostgresChannelError) {
        state.withLock { state in
            guard !state.finished, state.pendingCompletion == nil else { return }
            state.pendingCompletion = .failure(error)
        }
        drain()
    }

    private enum Step { case value(S, PostgresChannel<Payload>.Event), completion(S, Subscribers.Completion<PostgresChannelError>), stop }

    /// Delivers what the demand allows; whoever finds nobody delivering does it.
    private func drain() {
        let claimed = state.withLock { state -> Bool in
            guard !state.delivering, !state.finished, state.listening else { return false }
            state.delivering = true
            return true
        }
        guard claimed else { return }
        while true {
            let step = state.withLock { state -> Step in
                if state.finished {
                    state.delivering = false
                    return .stop
                }
                if (state.head < state.buffer.count), (state.demand > .none), let subscriber = state.subscriber {
                    let event = state.buffer[state.head]
                    state.head += 1
                    if state.head > 64, state.head * 2 > state.buffer.count {
                        state.buffer.removeFirst(state.head)
                        state.head = 0
                    }
                    if case .message = event { state.messages -= 1 }
                    state.demand -= 1
                    return .value(subscriber, event)
                }
                if state.head >= state.buffer.count, let completion = state.pendingCompletion,
                   let subscriber = state.subscriber {
                    state.finished = true
                    state.subscriber = nil
                    state.delivering = false
                    return .completion(subscriber, completion)
                }
                state.delivering = false
                return .stop
            }
            switch step {
            case .value(let subscriber, let event):
                let more = subscriber.receive(event)
                if more > .none { state.withLock { if !$0.finished { $0.demand += more } } }
            case .completion(let subscriber, let completion):
                if let token = state.withLock({ state -> ListenToken? in defer { state.token = nil }; return state.token }) {
                    channel.client.listener.unlisten(token)
                }
                subscriber.receive(completion: completion)
                return
            case .stop:
                return
            }
        }
    }
}
