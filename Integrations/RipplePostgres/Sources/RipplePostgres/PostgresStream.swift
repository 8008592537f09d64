import Foundation
import Logging
import PostgresNIO
import Ripple

/// A durable, append-only stream of `Value`s in one PostgreSQL table, and publishers that replay it
/// and then follow it live.
///
/// Each ``append(_:)`` inserts a row and notifies the stream's channel in one transaction; the
/// notification carries only the new offset. A subscription (``publisher(from:)``) issues `LISTEN`
/// first, then reads `SELECT … WHERE event_offset > last ORDER BY event_offset LIMIT demand` — the
/// subscriber's demand is the query's limit (capped by the page size for `.unlimited`), so a slow
/// subscriber makes the database wait, never this process's memory grow — and reads again when a
/// notification says there is more.
///
/// Guarantees, per stream:
/// - Offsets increase in commit order (appends to one stream take a transaction-scoped advisory
///   lock), so a subscriber reading `event_offset > last` never skips a row committed later with a
///   smaller offset. Write only through ``append(_:)``.
/// - A subscription delivers every offset after its start exactly once, in order — across a lost
///   connection or a server restart too: it reconnects with backoff and resumes after the last
///   offset it delivered. Connection errors are retried, never delivered as failures.
/// - A value that does not decode as `Value` fails the subscription with
///   ``PostgresStreamError/undecodable(offset:reason:)``, naming its offset.
///
/// Across processes, a named ``PostgresConsumer`` stores its position so that a restarted process
/// resumes where it stopped.
public struct PostgresStream<Value: Codable & Sendable>: Sendable {
    /// The table's name.
    public let name: String
    /// The client the stream uses.
    public let client: PostgresEventClient
    /// The most rows one catch-up query reads for a subscriber with `.unlimited` demand.
    public let pageSize: Int
    /// One encoder for the stream's appends (Foundation's encoder is safe to share).
    private let encoder = JSONEncoder()

    init(client: PostgresEventClient, name: String, pageSize: Int) throws {
        try validateName(name)
        guard pageSize > 0 else { throw PostgresEventError.invalidName("pageSize \(pageSize)") }
        self.client = client
        self.name = name
        self.pageSize = pageSize
    }

    /// The channel the stream's appends notify.
    var channel: String { "ripple_stream_\(name)" }

    /// Creates the stream's table and the consumers' positions table if they do not exist.
    /// Safe to call from several processes at once.
    public func prepare() async throws {
        let table = name
        try await client.withTransaction { connection in
            let logger = client.logger
            try await connection.query("SELECT pg_advisory_xact_lock(hashtext('ripple_prepare'))", logger: logger)
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS \(unescaped: table) (
                  event_offset bigserial PRIMARY KEY,
                  value jsonb NOT NULL,
                  appended_at timestamptz NOT NULL DEFAULT now())
                """, logger: logger)
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS ripple_consumer_positions (
                  stream text NOT NULL,
                  consumer text NOT NULL,
                  position bigint NOT NULL,
                  updated_at timestamptz NOT NULL DEFAULT now(),
                  PRIMARY KEY (stream, consumer))
                """, logger: logger)
        }
    }

    /// Appends `value` (as JSON) and notifies the stream's subscribers, in one transaction.
    ///
    /// Returns or throws within the client's
    /// ``PostgresEventClient/Configuration/operationTimeout`` (10 seconds by default). It is not
    /// retried: a lost connection throws postgres-nio's error, and no answer in time throws
    /// ``PostgresEventError/timedOut(operation:after:sent:)`` — with `sent: true` when the statement
    /// had been sent, so the value may be stored (a retry may then append it twice).
    ///
    /// - Returns: the value's offset.
    @discardableResult
    public func append(_ value: Value) async throws -> Int64 {
        let json = String(decoding: try encoder.encode(value), as: UTF8.self)
        let query = appendQuery(json: json)
        let logger = client.logger
        return try await client.withLeasedConnection(
            "append to \"\(name)\"", timeout: client.configuration.operationTimeout
        ) { connection in
            let result = try await connection.query(query, logger: logger).get()
            guard let row = result.rows.first else { throw PostgresStreamError.queryFailed("append returned no offset") }
            return try row.decode(Int64.self)
        }
    }

    /// Appends `value` inside a transaction of yours (for example with
    /// ``PostgresEventClient/withTransaction(_:)``): the row and its notification take effect when
    /// that transaction commits, and not at all if it rolls back.
    @discardableResult
    public func append(_ value: Value, on connection: PostgresConnection) async throws -> Int64 {
        let json = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        let rows = try await connection.query(appendQuery(json: json), logger: client.logger)
        for try await offset in rows.decode(Int64.self) { return offset }
        throw PostgresStreamError.queryFailed("append returned no offset")
    }

    /// One statement, so one transaction when run alone: the advisory lock (held to commit) makes
    /// offsets commit in order; `pg_notify` is delivered at commit.
    private func appendQuery(json: String) -> PostgresQuery {
        """
        WITH turn AS (SELECT pg_advisory_xact_lock(hashtext(\(channel)))),
             appended AS (INSERT INTO \(unescaped: name) (value) SELECT \(json)::jsonb FROM turn RETURNING event_offset)
        SELECT event_offset, pg_notify(\(channel), event_offset::text) FROM appended
        """
    }

    /// The offset of the newest committed value (0 for an empty stream).
    public func latestOffset() async throws -> Int64 {
        let query: PostgresQuery = "SELECT coalesce(max(event_offset), 0)::int8 FROM \(unescaped: name)"
        let logger = client.logger
        return try await client.withLeasedConnection(
            "latest offset of \"\(name)\"", timeout: client.configuration.operationTimeout
        ) { connection in
            let result = try await connection.query(query, logger: logger).get()
            return try result.rows.first?.decode(Int64.self) ?? 0
        }
    }

    /// A publisher of the stream's values after `start`, then of every value appended later.
    ///
    /// Each subscription has its own position, `LISTEN`s on the client's shared connection, and reads
    /// through the client's pool: it holds a connection while it catches up with a subscriber that
    /// keeps asking, and gives it back when caught up or out of demand.
    public func publisher(from start: StreamPosition = .beginning) -> Publisher {
        Publisher(stream: self, start: .position(start))
    }

    /// A named consumer of the stream: its position is stored in the database.
    public func consumer(_ name: String) throws -> PostgresConsumer<Value> {
        try validateName(name)
        return PostgresConsumer(stream: self, name: name)
    }

    /// Reads up to `limit` values after `offset`, in order.
    func read(after offset: Int64, limit: Int, on connection: PostgresConnection? = nil) async throws -> [(Int64, String)] {
        let query: PostgresQuery = """
            SELECT event_offset, value::text FROM \(unescaped: name)
            WHERE event_offset > \(offset) ORDER BY event_offset LIMIT \(limit)
            """
        guard let connection else {
            let stream = self
            return try await client.withLeasedConnection("read \"\(name)\"", timeout: client.configuration.operationTimeout) {
                try await stream.read(after: offset, limit: limit, on: $0)
            }
        }
        // The future-based query collects the rows in one go: cheaper per row than the async
        // sequence, which matters for a subscriber asking for one value at a time.
        let result = try await connection.query(query, logger: client.logger).get()
        var values: [(Int64, String)] = []
        values.reserveCapacity(result.rows.count)
        for row in result.rows { values.append(try row.decode((Int64, String).self)) }
        return values
    }

    func decode(_ json: String, offset: Int64, with decoder: JSONDecoder) -> Result<StreamEvent<Value>, PostgresStreamError> {
        do {
            return .success(StreamEvent(offset: offset, value: try decoder.decode(Value.self, from: Data(json.utf8))))
        } catch {
            return .failure(.undecodable(offset: offset, reason: "\(error)"))
        }
    }
}

/// Where a subscription starts.
public enum StreamPosition: Sendable, Equatable {
    /// From the stream's first value.
    case beginning
    /// From the value after `offset` (the first value not yet seen by a subscriber that saw
    /// `offset`).
    case after(Int64)
    /// From the first value committed after the subscription has started listening: none of the
    /// values appended from then on is missed.
    case now
}

/// One value of a stream, with its offset.
public struct StreamEvent<Value: Sendable>: Sendable {
    /// The value's position in the stream: increasing, not necessarily consecutive.
    public let offset: Int64
    /// The value.
    public let value: Value

    /// An event at `offset`.
    public init(offset: Int64, value: Value) {
        self.offset = offset
        self.value = value
    }
}

extension StreamEvent: Equatable where Value: Equatable {}

/// Why a stream subscription failed. Lost connections are not among them: those are retried.
public enum PostgresStreamError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The value at `offset` is not a valid JSON encoding of the stream's type.
    case undecodable(offset: Int64, reason: String)
    /// The server refused a query for a reason a retry cannot fix (a missing table, a permission).
    case queryFailed(String)

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .undecodable(let offset, let reason): "the value at offset \(offset) does not decode: \(reason)"
        case .queryFailed(let message): "query failed: \(message)"
        }
    }
}

/// Whether an error is worth retrying after a backoff: the connection, not the query, failed.
func isRetryable(_ error: any Error) -> Bool {
    // A row that does not decode (a table of another shape) or a value that does not encode fails
    // the same way every time.
    if error is CancellationError || error is PostgresDecodingError || error is EncodingError { return false }
    guard let error = error as? PSQLError else { return true }
    guard let state = error.serverInfo?[.sqlState] else { return true }
    // 08: connection exceptions; 57: operator intervention (terminated backend, shutdown,
    // cannot connect now); 53: insufficient resources; 40: serialization failure, deadlock.
    return ["08", "57", "53", "40"].contains(String(state.prefix(2)))
}

func describe(_ error: any Error) -> String {
    if let error = error as? PSQLError, let message = error.serverInfo?[.message] {
        return "\(message) (\(error.serverInfo?[.sqlState] ?? "?"))"
    }
    return String(describing: error)
}
