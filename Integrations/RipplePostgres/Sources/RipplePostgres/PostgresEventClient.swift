import Foundation
import Logging
import PostgresNIO

/// A connection to one PostgreSQL database for Ripple's publishers: durable streams
/// (``PostgresStream``) and ephemeral channels (``PostgresChannel``).
///
/// A client holds a pool of connections for queries (appends, catch-up reads, stored positions,
/// transactions) and **one** connection for `LISTEN`, shared by every subscriber of the client: the
/// first subscriber of a channel issues `LISTEN`, the last one to cancel issues `UNLISTEN`. When that
/// connection is lost the client reconnects with ``ReconnectBackoff`` and listens again; durable
/// subscriptions then catch up from their last offset, ephemeral ones are told of the gap.
///
/// Call ``shutdown()`` when done: it closes every connection. Subscriptions still running then
/// stop without a completion.
public final class PostgresEventClient: Sendable {
    /// Where the server is and how to reach it.
    public struct Configuration: Sendable {
        /// The server's host name or address.
        public var host: String
        /// The server's port.
        public var port: Int
        /// The role to connect as.
        public var username: String
        /// The role's password, if the server asks for one.
        public var password: String?
        /// The database (PostgreSQL's default: the user name).
        public var database: String?
        /// Whether to use TLS. Loopback servers usually need none.
        public var tls: Bool
        /// The `application_name` the connections report in `pg_stat_activity`; the `LISTEN`
        /// connection adds `-listener` to it.
        public var applicationName: String
        /// How long to wait between reconnection attempts.
        public var reconnectBackoff: ReconnectBackoff
        /// The most connections the query pool opens (at least 1). One of them is opened when the
        /// client is made and kept open while it runs, and idle ones are not pinged: a connection
        /// that died while idle is found by the next operation, which then fails (within
        /// ``operationTimeout``) and is not retried.
        public var maximumConnections: Int
        /// How long a single operation — ``PostgresStream/append(_:)``, a notification, a consumer's
        /// ``PostgresConsumer/commit(_:)`` or ``PostgresConsumer/storedPosition()``, a stream's
        /// ``PostgresStream/latestOffset()`` — may take, from asking the pool for a connection to
        /// the server's answer; then it throws ``PostgresEventError/timedOut(operation:after:sent:)``.
        /// Default: 10 seconds. Subscriptions are not bounded by it (they retry until cancelled).
        public var operationTimeout: Duration

        /// A configuration from its parts.
        public init(
            host: String, port: Int = 5432, username: String, password: String? = nil, database: String? = nil,
            tls: Bool = false
        ) {
            self.host = host
            self.port = port
            self.username = username
            self.password = password
            self.database = database
            self.tls = tls
            self.applicationName = "ripple"
            self.reconnectBackoff = ReconnectBackoff()
            self.maximumConnections = 8
            self.operationTimeout = .seconds(10)
        }

        /// A configuration from a URL: `postgres://user:password@host:port/database`, with
        /// `?sslmode=require` for TLS.
        public init(url: String) throws {
            guard let components = URLComponents(string: url),
                  components.scheme == "postgres" || components.scheme == "postgresql",
                  let host = components.host, let user = components.user
            else { throw PostgresEventError.invalidURL(url) }
            let database = components.path.isEmpty ? nil : String(components.path.dropFirst())
            let tls = components.queryItems?.contains { $0.name == "sslmode" && $0.value == "require" } ?? false
            self.init(
                host: host, port: components.port ?? 5432, username: user,
                password: components.password, database: database, tls: tls)
        }

        /// The postgres-nio configuration of a single connection with these settings.
        public var connectionConfiguration: PostgresConnection.Configuration {
            var configuration = PostgresConnection.Configuration(
                host: host, port: port, username: username, password: password, database: database,
                tls: tls ? .require(try! .init(configuration: .makeClientConfiguration())) : .disable)
            configuration.options.additionalStartupParameters = [("application_name", applicationName)]
            return configuration
        }

        var clientConfiguration: PostgresClient.Configuration {
            var configuration = PostgresClient.Configuration(
                host: host, port: port, username: username, password: password, database: database,
                tls: tls ? .require(.makeClientConfiguration()) : .disable)
            configuration.options.additionalStartupParameters = [("application_name", applicationName)]
            configuration.options.maximumConnections = maximumConnections
            configuration.options.connectTimeout = .seconds(5)
            // The pool's timers cost a few tasks each time a connection goes back idle (postgres-nio
            // 1.33 runs every timer as a task group of two tasks): with neither an idle timeout (one
            // connection is kept open for good) nor a keep-alive ping, returning the connection
            // after an append costs nothing more. A connection that died while idle is found by the
            // next operation, which then fails within `operationTimeout` like any other.
            configuration.options.minimumConnections = min(1, maximumConnections)
            configuration.options.keepAliveBehavior = nil
            return configuration
        }
    }

    /// The settings the client was made with.
    public let configuration: Configuration
    let pool: PostgresClient
    let listener: ListenerHub
    let logger: Logger
    private let poolTask: Task<Void, Never>

    /// A client for the server `configuration` names. Connections open when first needed.
    public init(configuration: Configuration) {
        self.configuration = configuration
        var logger = Logger(label: "ripple.postgres")
        logger.logLevel = .critical
        self.logger = logger
        let pool = PostgresClient(configuration: configuration.clientConfiguration, backgroundLogger: logger)
        self.pool = pool
        self.poolTask = Task { await pool.run() }
        var listenConfiguration = configuration
        listenConfiguration.applicationName += "-listener"
        self.listener = ListenerHub(
            configuration: listenConfiguration.connectionConfiguration, backoff: configuration.reconnectBackoff,
            logger: logger)
    }

    /// A client for the server at `url` (`postgres://user:password@host:port/database`).
    public convenience init(url: String) throws {
        self.init(configuration: try Configuration(url: url))
    }

    /// Closes every connection. Subscriptions still running stop without a completion.
    public func shutdown() async {
        await listener.shutdown()
        poolTask.cancel()
        await poolTask.value
    }

    /// Runs `body` with a connection of the pool in a transaction: committed when `body` returns,
    /// rolled back when it throws.
    @discardableResult
    public func withTransaction<Result: Sendable>(
        _ body: (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        try await pool.withConnection { connection in
            try await connection.query("BEGIN", logger: logger)
            do {
                let result = try await body(connection)
                try await connection.query("COMMIT", logger: logger)
                return result
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    /// Runs `body` with a connection of the pool.
    @discardableResult
    public func withConnection<Result: Sendable>(
        _ body: (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        try await pool.withConnection(body)
    }

    /// A durable stream of `Value`s stored in the table `name` (created by ``PostgresStream/prepare()``).
    ///
    /// - Parameters:
    ///   - name: the table's name: lower-case letters, digits and underscores, starting with a letter
    ///     or an underscore, at most 48 characters (it also names the notification channel).
    ///   - type: the values' type, stored as JSON.
    ///   - pageSize: the most rows one catch-up query reads for a subscriber with `.unlimited` demand.
    public func stream<Value: Codable & Sendable>(
        _ name: String, of type: Value.Type = Value.self, pageSize: Int = 512
    ) throws -> PostgresStream<Value> {
        try PostgresStream(client: self, name: name, pageSize: pageSize)
    }

    /// An ephemeral channel carrying `Payload`s as JSON through `LISTEN`/`NOTIFY`.
    ///
    /// - Parameters:
    ///   - name: the channel's name, under the same rules as a stream's.
    ///   - bufferSize: how many messages a subscriber without demand may have waiting.
    public func channel<Payload: Codable & Sendable>(
        _ name: String, of type: Payload.Type = Payload.self, bufferSize: Int = 1024
    ) throws -> PostgresChannel<Payload> {
        try PostgresChannel(client: self, name: name, bufferSize: bufferSize)
    }

    /// Sends `payload` as JSON on the channel `channel` (`NOTIFY`). Subscribers listening now receive
    /// it; nobody else ever will.
    ///
    /// - Throws: ``PostgresEventError/payloadTooLarge(channel:bytes:)`` — before anything is sent —
    ///   when the JSON is 8,000 bytes or longer (PostgreSQL's limit); an encoding or connection error.
    public func notify<Payload: Encodable & Sendable>(channel: String, payload: Payload) async throws {
        try validateName(channel)
        let json = String(decoding: try JSONEncoder().encode(payload), as: UTF8.self)
        try await notify(channel: channel, text: json)
    }

    func notify(channel: String, text: String) async throws {
        guard text.utf8.count < maximumNotifyPayload else {
            throw PostgresEventError.payloadTooLarge(channel: channel, bytes: text.utf8.count)
        }
        let logger = self.logger
        try await withLeasedConnection("NOTIFY on \"\(channel)\"", timeout: configuration.operationTimeout) { connection in
            _ = try await connection.query("SELECT pg_notify(\(channel), \(text))", logger: logger).get()
        }
    }
}

/// PostgreSQL refuses a `NOTIFY` payload of 8,000 bytes or more.
let maximumNotifyPayload = 8000

/// What can go wrong with a client, stream or channel, other than the connection (which the
/// publishers retry).
public enum PostgresEventError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL is not of the form `postgres://user:password@host:port/database`.
    case invalidURL(String)
    /// A stream, channel or consumer name that is not lower-case letters, digits and underscores
    /// (starting with a letter or underscore, at most 48 characters).
    case invalidName(String)
    /// A `NOTIFY` payload of `bytes` bytes: PostgreSQL takes fewer than 8,000. Nothing was sent.
    case payloadTooLarge(channel: String, bytes: Int)
    /// `operation` (an append, a notification, a stored position…) had no answer within `after`
    /// (``PostgresEventClient/Configuration/operationTimeout``). `sent: false`: no connection could
    /// be had, nothing reached the server. `sent: true`: the statement was sent and may have taken
    /// effect — an append may have been stored (check before appending it again).
    case timedOut(operation: String, after: Duration, sent: Bool)

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .invalidURL(let url): "not a postgres:// URL: \(url)"
        case .invalidName(let name):
            "invalid name \"\(name)\": use lower-case letters, digits and underscores (at most 48, not starting with a digit)"
        case .payloadTooLarge(let channel, let bytes):
            "NOTIFY payload on \"\(channel)\" is \(bytes) bytes; PostgreSQL takes fewer than 8000 (nothing was sent)"
        case .timedOut(let operation, let after, sent: false):
            "\(operation) timed out after \(after) waiting for a connection; nothing was sent"
        case .timedOut(let operation, let after, sent: true):
            "\(operation) timed out after \(after) waiting for the server's answer; it may have taken effect"
        }
    }
}

func validateName(_ name: String) throws {
    let bytes = Array(name.utf8)
    let valid = !bytes.isEmpty && bytes.count <= 48
        && bytes.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95 }
        && !(bytes[0] >= 48 && bytes[0] <= 57)
    guard valid else { throw PostgresEventError.invalidName(name) }
}
