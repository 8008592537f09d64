import Logging
import NIOCore
import PostgresNIO

/// What a listener hears from the shared `LISTEN` connection, on that connection's event loop, in
/// the order the server sent it.
enum ListenerEvent: Sendable {
    /// A notification's payload.
    case notification(String)
    /// The connection was lost: notifications sent from now on until `.reconnected` are not heard.
    case connectionLost
    /// Listening again on a new connection (the `LISTEN` has completed).
    case reconnected
}

/// A registration with the hub, returned by `listen`; give it back to `unlisten`.
struct ListenToken: Hashable, Sendable {
    let channel: String
    let id: Int
}

/// The one `LISTEN` connection of a client, shared by every subscriber: `LISTEN` on a channel's
/// first listener, `UNLISTEN` after its last, reconnection with backoff (listening again on every
/// channel that still has listeners).
final class ListenerHub: Sendable {
    typealias Handler = @Sendable (ListenerEvent) -> Void

    private struct State {
        var connection: PostgresConnection?
        /// The connection being made, which every `listen` waits for.
        var connecting: Task<PostgresConnection, any Error>?
        /// The listener contexts of `connection`, by channel.
        var contexts: [String: PostgresListenContext] = [:]
        var handlers: [String: [Int: Handler]] = [:]
        var nextID = 0
        var shutDown = false
        var generation = 0
    }

    private let state = Locked(State())
    private let configuration: PostgresConnection.Configuration
    private let backoff: ReconnectBackoff
    private let logger: Logger

    init(configuration: PostgresConnection.Configuration, backoff: ReconnectBackoff, logger: Logger) {
        self.configuration = configuration
        self.backoff = backoff
        self.logger = logger
    }

    /// Registers `handler` for `channel` and returns once the server has confirmed `LISTEN` (so that
    /// anything notified after this returns is heard).
    func listen(_ channel: String, handler: @escaping Handler) async throws -> ListenToken {
        let token = state.withLock { state -> ListenToken in
            state.nextID += 1
            state.handlers[channel, default: [:]][state.nextID] = handler
            return ListenToken(channel: channel, id: state.nextID)
        }
        do {
            let connection = try await connected()
            attachContexts(to: connection)
            // Queries on one connection run in order: once this one is answered, the LISTEN queued
            // before it has been too.
            try await connection.query("SELECT 1", logger: logger)
            return token
        } catch {
            unlisten(token)
            throw error
        }
    }

    /// Removes a registration; the channel's last one issues `UNLISTEN`.
    func unlisten(_ token: ListenToken) {
        let context = state.withLock { state -> PostgresListenContext? in
            state.handlers[token.channel]?[token.id] = nil
            guard state.handlers[token.channel]?.isEmpty ?? true else { return nil }
            state.handlers[token.channel] = nil
            return state.contexts.removeValue(forKey: token.channel)
        }
        // postgres-nio sends UNLISTEN when a channel's last listener context stops.
        context?.stop()
    }

    /// The backend process ID of the `LISTEN` connection, if it is open.
    func backendPID() async throws -> Int32? {
        guard let connection = state.withLock({ $0.connection }) else { return nil }
        let rows = try await connection.query("SELECT pg_backend_pid()", logger: logger)
        for try await pid in rows.decode(Int32.self) { return pid }
        return nil
    }

    func shutdown() async {
        let (connection, connecting) = state.withLock { state in
            state.shutDown = true
            state.handlers = [:]
            state.contexts = [:]
            defer { state.connection = nil; state.connecting = nil }
            return (state.connection, state.connecting)
        }
        connecting?.cancel()
        try? await connection?.close()
        if let made = try? await connecting?.value { try? await made.close() }
    }

    // MARK: Connecting

    private func connected() async throws -> PostgresConnection {
        let (existing, task) = state.withLock { state -> (PostgresConnection?, Task<PostgresConnection, any Error>?) in
            if let connection = state.connection { return (connection, nil) }
            if state.shutDown { return (nil, nil) }
            if let connecting = state.connecting { return (nil, connecting) }
            let task = Task { try await self.connectWithBackoff() }
            state.connecting = task
            return (nil, task)
        }
        if let existing { return existing }
        guard let task else { throw CancellationError() }
        return try await task.value
    }

    /// Connects, retrying with backoff until it succeeds or the hub shuts down, and installs the
    /// connection.
    private func connectWithBackoff() async throws -> PostgresConnection {
        var attempt = 0
        while true {
            if state.withLock({ $0.shutDown }) { throw CancellationError() }
            do {
                let connection = try await PostgresConnection.connect(
                    configuration: configuration, id: 0, logger: logger)
                let installed = state.withLock { state -> Bool in
                    guard !state.shutDown else { return false }
                    state.connection = connection
                    state.connecting = nil
                    state.contexts = [:]
                    state.generation += 1
                    return true
                }
                guard installed else {
                    try? await connection.close()
                    throw CancellationError()
                }
                connection.closeFuture.whenComplete { [weak self] _ in self?.connectionClosed(connection) }
                return connection
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                try await Task.sleep(for: backoff.delay(attempt: attempt))
                attempt += 1
            }
        }
    }

    /// Adds a postgres-nio listener context (which issues `LISTEN`) for each channel that has
    /// handlers and none yet on `connection`.
    private func attachContexts(to connection: PostgresConnection) {
        state.withLock { state in
            guard state.connection === connection else { return }
            for channel in state.handlers.keys where state.contexts[channel] == nil {
                state.contexts[channel] = connection.addListener(channel: channel) { [weak self] _, notification in
                    self?.dispatch(channel: channel, .notification(notification.payload))
                }
            }
        }
    }

    private func dispatch(channel: String, _ event: ListenerEvent) {
        let handlers = state.withLock { state in state.handlers[channel].map { Array($0.values) } ?? [] }
        for handler in handlers { handler(event) }
    }

    private func dispatchAll(_ event: ListenerEvent) {
        let handlers = state.withLock { state in state.handlers.values.flatMap { $0.values } }
        for handler in handlers { handler(event) }
    }

    /// The `LISTEN` connection closed: tell every listener, then reconnect if anyone still listens.
    private func connectionClosed(_ connection: PostgresConnection) {
        let reconnect = state.withLock { state -> Bool in
            guard state.connection === connection else { return false }
            state.connection = nil
            state.contexts = [:]
            return !state.shutDown && !state.handlers.isEmpty
        }
        guard reconnect else { return }
        dispatchAll(.connectionLost)
        Task {
            guard let connection = try? await self.connected() else { return }
            self.attachContexts(to: connection)
            guard (try? await connection.query("SELECT 1", logger: self.logger)) != nil else { return }
            self.dispatchAll(.reconnected)
        }
    }
}
