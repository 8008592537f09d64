// Ripple's PostgresStream beside a hand-written postgres-nio loop doing the same work: append with
// NOTIFY (one statement, one transaction) → the reader's LISTEN connection is woken → it SELECTs
// the new rows on another connection → they reach a subscriber. One run, same server, same rows.
//
//   POSTGRES_URL=postgres://postgres@127.0.0.1:5432/postgres swift run -c release RipplePostgresBenchmark [--count N]
import Dispatch
import Foundation
import Logging
import NIOCore
import PostgresNIO
import Ripple
import RipplePostgres

struct Payload: Codable, Sendable {
    var number: Int
    var text: String
}

let arguments = CommandLine.arguments
let count = arguments.firstIndex(of: "--count").flatMap { Int(arguments[$0 + 1]) } ?? 5000
let rounds = arguments.firstIndex(of: "--rounds").flatMap { Int(arguments[$0 + 1]) } ?? 3
guard let url = ProcessInfo.processInfo.environment["POSTGRES_URL"] else {
    print("set POSTGRES_URL to a server (postgres://user@host:port/database)")
    exit(2)
}
let logger = Logger(label: "benchmark")

/// Nanoseconds on a monotonic clock.
func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// Send times by sequence number, receive times by sequence number.
final class Timings: @unchecked Sendable {
    private let lock = NSLock()
    var sent: [UInt64]
    var received: [UInt64]
    private var receivedCount = 0
    private var done: CheckedContinuation<Void, Never>?
    private var finished = false

    init(count: Int) {
        sent = Array(repeating: 0, count: count)
        received = Array(repeating: 0, count: count)
    }

    func send(_ index: Int) { lock.withLock { sent[index] = now() } }

    func receive(_ index: Int) {
        let continuation: CheckedContinuation<Void, Never>? = lock.withLock {
            received[index] = now()
            receivedCount += 1
            guard receivedCount == received.count else { return nil }
            finished = true
            defer { done = nil }
            return done
        }
        continuation?.resume()
    }

    func waitForAll() async {
        await withCheckedContinuation { continuation in
            let now: Bool = lock.withLock {
                if finished { return true }
                done = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }

    func report(_ name: String) -> (rate: Double, p50: Double, p99: Double) {
        let latencies = zip(sent, received).map { Double($1 &- $0) / 1000 }.sorted()
        let elapsed = Double(received.max()! - sent.min()!) / 1e9
        let rate = Double(sent.count) / elapsed
        let p50 = latencies[latencies.count / 2]
        let p99 = latencies[min(latencies.count - 1, latencies.count * 99 / 100)]
        print(name.padding(toLength: 24, withPad: " ", startingAt: 0)
              + String(format: "%8.0f events/s   p50 %7.0f µs   p99 %7.0f µs", rate, p50, p99))
        return (rate, p50, p99)
    }
}

func payload(_ index: Int) -> Payload { Payload(number: index, text: "event \(index)") }

/// Ripple: `append` on one client, a subscription with unlimited demand on another.
func runRipple(table: String) async throws -> (rate: Double, p50: Double, p99: Double) {
    let writer = try PostgresEventClient(url: url)
    let reader = try PostgresEventClient(url: url)
    let stream = try writer.stream(table, of: Payload.self)
    try await stream.prepare()
    let timings = Timings(count: count)
    let subscription = try reader.stream(table, of: Payload.self).publisher(from: .now)
        .sink(receiveCompletion: { print("failed: \($0)") }, receiveValue: { timings.receive($0.value.number) })
    try await Task.sleep(for: .milliseconds(300))  // the subscription has listened
    for index in 0..<count {
        timings.send(index)
        try await stream.append(payload(index))
    }
    await timings.waitForAll()
    subscription.cancel()
    await writer.shutdown()
    await reader.shutdown()
    return timings.report("Ripple PostgresStream")
}

/// The same work written by hand on postgres-nio: a writer connection; a LISTEN connection whose
/// notifications wake a reader loop that SELECTs on a third connection and hands each row to a
/// closure.
func runHandWritten(table: String) async throws -> (rate: Double, p50: Double, p99: Double) {
    var configuration = try PostgresEventClient.Configuration(url: url).connectionConfiguration
    configuration.options.additionalStartupParameters = []
    let writer = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
    let listener = try await PostgresConnection.connect(configuration: configuration, id: 2, logger: logger)
    let reader = try await PostgresConnection.connect(configuration: configuration, id: 3, logger: logger)
    let channel = "ripple_stream_\(table)"
    let timings = Timings(count: count)
    let decoder = JSONDecoder()
    let (wakeUps, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    listener.addListener(channel: channel) { _, _ in wake.yield() }
    try await listener.query("SELECT 1", logger: logger)
    var last: Int64 = try await {
        for try await offset in try await reader.query(
            "SELECT coalesce(max(event_offset), 0)::int8 FROM \(unescaped: table)", logger: logger
        ).decode(Int64.self) { return offset }
        return 0
    }()
    let reading = Task {
        var delivered = 0
        for await _ in wakeUps {
            while true {
                let rows = try await reader.query(
                    "SELECT event_offset, value::text FROM \(unescaped: table) WHERE event_offset > \(last) ORDER BY event_offset LIMIT 512",
                    logger: logger)
                var batch: [(Int64, String)] = []
                for try await row in rows.decode((Int64, String).self) { batch.append(row) }
                for (offset, json) in batch {
                    let value = try decoder.decode(Payload.self, from: Data(json.utf8))
                    timings.receive(value.number)
                    last = offset
                    delivered += 1
                }
                if batch.count < 512 { break }
            }
            if delivered == count { return }
        }
    }
    let encoder = JSONEncoder()
    for index in 0..<count {
        timings.send(index)
        let json = String(decoding: try encoder.encode(payload(index)), as: UTF8.self)
        // Like `append`, wait for the statement's row and decode the new offset (not only the
        // start of the result): the next append starts after this one has committed.
        let rows = try await writer.query(
            """
            WITH turn AS (SELECT pg_advisory_xact_lock(hashtext(\(channel)))),
                 appended AS (INSERT INTO \(unescaped: table) (value) SELECT \(json)::jsonb FROM turn RETURNING event_offset)
            SELECT event_offset, pg_notify(\(channel), event_offset::text) FROM appended
            """, logger: logger)
        var offset: Int64?
        for try await row in rows.decode(Int64.self) { offset = row }
        guard offset != nil else { fatalError("hand-written append returned no offset") }
    }
    await timings.waitForAll()
    try await reading.value
    try await writer.close()
    try await listener.close()
    try await reader.close()
    return timings.report("hand-written loop")
}

print("\(count) events per run, \(rounds) rounds, server \(url.split(separator: "@").last ?? "")")
var ripple: [Double] = []
var hand: [Double] = []
for round in 0..<rounds {
    let table = "ripple_benchmark_\(getpid())_\(round)"
    // The hand-written loop reads the table Ripple's stream creates (prepare()).
    let client = try PostgresEventClient(url: url)
    try await client.stream(table, of: Payload.self).prepare()
    await client.shutdown()
    if round % 2 == 0 {
        hand.append(try await runHandWritten(table: table).rate)
        ripple.append(try await runRipple(table: table).rate)
    } else {
        ripple.append(try await runRipple(table: table).rate)
        hand.append(try await runHandWritten(table: table).rate)
    }
}
let rippleMedian = ripple.sorted()[ripple.count / 2]
let handMedian = hand.sorted()[hand.count / 2]
print(String(format: "median events/s: Ripple %.0f, hand-written %.0f; hand-written / Ripple = %.2f×",
             rippleMedian, handMedian, handMedian / rippleMedian))
