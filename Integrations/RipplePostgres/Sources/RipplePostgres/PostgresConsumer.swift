import Foundation
import PostgresNIO
import Ripple

/// A named reader of a stream whose position is stored in the database (the table
/// `ripple_consumer_positions`), so that a process restarted — on this machine or another — resumes
/// where the consumer stopped.
///
/// Which delivery that gives depends on when the position is stored:
/// - ``publisher(commit:ifNoPosition:)`` with ``CommitPolicy/afterEachDelivery`` stores the offset
///   after your subscriber's `receive(_:)` returns: **at-least-once** across a crash (a crash
///   between the two redelivers that one value after the restart). Within one running subscription
///   every value is delivered exactly once.
/// - ``CommitPolicy/manual`` stores nothing; call ``commit(_:)`` when your work for an offset is
///   durable. Still at-least-once, with fewer writes.
/// - ``processNext(limit:_:)`` runs your write and the position update in **one transaction** per
///   value: **exactly-once** effects for writes you make through the connection it lends you.
public struct PostgresConsumer<Value: Codable & Sendable>: Sendable {
    /// The stream the consumer reads.
    public let stream: PostgresStream<Value>
    /// The consumer's name, unique within its stream.
    public let name: String

    /// When a consumer's publisher stores its position.
    public enum CommitPolicy: Sendable, Equatable {
        /// After each value your subscriber has received (at-least-once across a crash).
        case afterEachDelivery
        /// Only when you call ``PostgresConsumer/commit(_:)``.
        case manual
    }

    /// The stored position: the offset of the last value processed, or nil if none was stored.
    public func storedPosition() async throws -> Int64? {
        let query: PostgresQuery =
            "SELECT position FROM ripple_consumer_positions WHERE stream = \(stream.name) AND consumer = \(name)"
        let logger = stream.client.logger
        return try await stream.client.withLeasedConnection(
            "stored position of \"\(name)\"", timeout: stream.client.configuration.operationTimeout
        ) { connection in
            let result = try await connection.query(query, logger: logger).get()
            return try result.rows.first?.decode(Int64.self)
        }
    }

    /// Stores `offset` as the consumer's position (the next start reads the values after it).
    public func commit(_ offset: Int64) async throws {
        let query = upsert(offset)
        let logger = stream.client.logger
        try await stream.client.withLeasedConnection(
            "commit of \"\(name)\"", timeout: stream.client.configuration.operationTimeout
        ) { connection in
            _ = try await connection.query(query, logger: logger).get()
        }
    }

    func commit(_ offset: Int64, on connection: PostgresConnection) async throws {
        try await connection.query(upsert(offset), logger: stream.client.logger)
    }

    private func upsert(_ offset: Int64) -> PostgresQuery {
        """
        INSERT INTO ripple_consumer_positions (stream, consumer, position) VALUES (\(stream.name), \(name), \(offset))
        ON CONFLICT (stream, consumer) DO UPDATE SET position = excluded.position, updated_at = now()
        """
    }

    /// A publisher of the values after the stored position (or after `ifNoPosition` when none is
    /// stored), then of every later value, storing the position as `commit` says.
    ///
    /// The stored position is read once, when the subscription starts (after it has started
    /// listening). Two subscriptions of one consumer at once each read everything: run one per
    /// consumer name, or use ``processNext(limit:_:)``, which locks the position.
    public func publisher(
        commit: CommitPolicy = .afterEachDelivery, ifNoPosition: StreamPosition = .beginning
    ) -> PostgresStream<Value>.Publisher {
        PostgresStream<Value>.Publisher(stream: stream, start: .consumer(self, commit, ifNone: ifNoPosition))
    }

    /// Processes up to `limit` values after the stored position, each in its own transaction that
    /// also stores the position: when `body` throws, that value's writes and position roll back, the
    /// error is rethrown, and the next call starts with that value again. Writes made through the
    /// connection `body` is given are therefore applied exactly once.
    ///
    /// The position's row is locked for each transaction, so several processes can call this for
    /// one consumer at once without processing a value twice.
    ///
    /// - Returns: how many values were processed (0 when the consumer is caught up).
    @discardableResult
    public func processNext(
        limit: Int = 100, _ body: (StreamEvent<Value>, PostgresConnection) async throws -> Void
    ) async throws -> Int {
        let decoder = JSONDecoder()
        var processed = 0
        while processed < limit {
            let done = try await stream.client.withTransaction { connection -> Bool in
                let logger = stream.client.logger
                // Make sure the row exists, then lock it for this transaction.
                try await connection.query(
                    """
                    INSERT INTO ripple_consumer_positions (stream, consumer, position) VALUES (\(stream.name), \(name), 0)
                    ON CONFLICT (stream, consumer) DO NOTHING
                    """, logger: logger)
                let rows = try await connection.query(
                    """
                    SELECT position FROM ripple_consumer_positions
                    WHERE stream = \(stream.name) AND consumer = \(name) FOR UPDATE
                    """, logger: logger)
                var position: Int64 = 0
                for try await stored in rows.decode(Int64.self) { position = stored }
                guard let (offset, json) = try await stream.read(after: position, limit: 1, on: connection).first
                else { return true }
                let event = try stream.decode(json, offset: offset, with: decoder).get()
                try await body(event, connection)
                try await connection.query(upsert(offset), logger: logger)
                return false
            }
            if done { break }
            processed += 1
        }
        return processed
    }
}
