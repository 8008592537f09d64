import Foundation
import PostgresNIO
import Ripple
@testable import RipplePostgres
import Testing

struct Item: Codable, Sendable, Equatable {
    var number: Int
}

/// All suites run one at a time: one of them restarts the server, which every other test would feel.
@Suite(.serialized) struct PostgresTests {}

extension PostgresTests {
    @Suite struct StreamTests {
        typealias Events = Recorder<StreamEvent<Item>, PostgresStreamError>

        private func makeStream(_ client: PostgresEventClient, pageSize: Int = 512) async throws -> PostgresStream<Item> {
            let stream = try client.stream(TestServer.uniqueName("stream"), of: Item.self, pageSize: pageSize)
            try await stream.prepare()
            return stream
        }

        @Test func replaysFromTheBeginningThenFollowsLive() async throws {
            let client = try TestServer.client()
            let stream = try await makeStream(client)
            for number in 0..<3 { try await stream.append(Item(number: number)) }
            let recorder = Events()
            stream.publisher(from: .beginning).subscribe(recorder)
            try await recorder.wait(forCount: 3)
            for number in 3..<6 { try await stream.append(Item(number: number)) }
            try await recorder.wait(forCount: 6)
            #expect(recorder.values.map(\.value.number) == Array(0..<6))
            #expect(recorder.values.map(\.offset) == Array(1...6))
            #expect(recorder.completion == nil)
            #expect(!recorder.overlapped)
            recorder.cancel()
            await client.shutdown()
        }

        @Test func startsAfterAnOffset() async throws {
            let client = try TestServer.client()
            let stream = try await makeStream(client)
            for number in 0..<5 { try await stream.append(Item(number: number)) }
            let recorder = Events()
            stream.publisher(from: .after(3)).subscribe(recorder)
            try await recorder.wait(forCount: 2)
            try await Task.sleep(for: .milliseconds(100))
            #expect(recorder.values.map(\.offset) == [4, 5])
            recorder.cancel()
            await client.shutdown()
        }

        @Test func demandIsTheQueryLimit() async throws {
            let client = try TestServer.client()
            let stream = try await makeStream(client, pageSize: 4)
            for number in 0..<10 { try await stream.append(Item(number: number)) }
            let recorder = Events(initial: .max(3))
            stream.publisher(from: .beginning).subscribe(recorder)
            try await recorder.wait(forCount: 3)
            try await Task.sleep(for: .milliseconds(200))
            #expect(recorder.values.count == 3, "no value beyond the demand")
            recorder.request(.unlimited)
            try await recorder.wait(forCount: 10)
            #expect(recorder.values.map(\.value.number) == Array(0..<10))
            recorder.cancel()
            await client.shutdown()
        }

        @Test func fromNowWhileAppendsRunLosesNone() async throws {
            let writer = try TestServer.client("writer")
            let reader = try TestServer.client("reader")
            let stream = try await makeStream(writer)
            let readerStream = try reader.stream(stream.name, of: Item.self)
            let total = 3000
            let appending = Task {
                var offsets: [Int64] = []
                for number in 0..<total { offsets.append(try await stream.append(Item(number: number))) }
                return offsets
            }
            try await eventually { try await stream.latestOffset() >= 300 }
            let recorder = Events()
            readerStream.publisher(from: .now).subscribe(recorder)
            let offsets = try await appending.value
            try await recorder.wait { $0.values.last?.offset == offsets.last || $0.completion != nil }
            let delivered = recorder.values.map(\.offset)
            let first = try #require(delivered.first)
            #expect(first < offsets[total - 1000], "the subscription started while appends were running")
            #expect(delivered == Array(offsets.drop { $0 < first }), "every offset after the start, in order, once")
            recorder.cancel()
            await writer.shutdown()
            await reader.shutdown()
        }

        @Test func maxOneDemandOverAHundredThousandStaysFlat() async throws {
            let client = try TestServer.client()
            let stream = try await makeStream(client)
            // Written server-side (one statement) to keep the test short; the subscriber is what is measured.
            _ = try await TestServer.execute(
                "INSERT INTO \(stream.name) (value) SELECT jsonb_build_object('number', n) FROM generate_series(0, 99999) AS n")
            let memory = Locked<[Int: Int]>([:])
            let recorder = Events(initial: .max(1), each: .max(1)) { _, count in
                if count == 10_000 || count == 100_000 {
                    let bytes = residentBytes()
                    memory.withLock { $0[count] = bytes }
                }
            }
            stream.publisher(from: .beginning).subscribe(recorder)
            try await recorder.wait(forCount: 100_000, timeout: .seconds(400))
            let values = recorder.values
            #expect(values.count == 100_000)
            #expect(values.enumerated().allSatisfy { $0.offset == $0.element.value.number })
            let rss = memory.withLock { $0 }
            let growth = try #require(rss[100_000]) - (try #require(rss[10_000]))
            print("RSS after 10,000: \(rss[10_000]! / 1_048_576) MB; after 100,000: \(rss[100_000]! / 1_048_576) MB")
            // The recorder's own array of 90,000 more events is about 90,000 × 16 bytes = 1.4 MB.
            #expect(growth < 10 * 1_048_576)
            recorder.cancel()
            await client.shutdown()
        }

        @Test func undecodableValueFailsWithItsOffset() async throws {
            let client = try TestServer.client()
            let stream = try await makeStream(client)
            try await stream.append(Item(number: 1))
            _ = try await TestServer.execute("INSERT INTO \(stream.name) (value) VALUES ('{\"name\": \"not an item\"}')")
            try await stream.append(Item(number: 3))
            let recorder = Events()
            stream.publisher(from: .beginning).subscribe(recorder)
            try await recorder.wait { $0.completion != nil }
            #expect(recorder.values.map(\.value.number) == [1])
            guard case .failure(.undecodable(let offset, let reason)) = recorder.completion else {
                Issue.record("expected an undecodable failure, got \(String(describing: recorder.completion))")
                return
            }
            #expect(offset == 2)
            #expect(reason.contains("number"))
            await client.shutdown()
        }

        @Test func cancelReleasesTheSubscriberAndUnlistens() async throws {
            let label = TestServer.uniqueName("cancel")
            let client = try TestServer.client(label)
            let stream = try await makeStream(client)
            try await stream.append(Item(number: 0))
            weak var released: Events?
            do {
                let recorder = Events()
                released = recorder
                stream.publisher(from: .beginning).subscribe(recorder)
                try await recorder.wait(forCount: 1)
                let listenerQuery = try await listenerActivity(label)
                #expect(listenerQuery?.query == "SELECT 1")
                recorder.cancel()
            }
            try await eventually { try await listenerActivity(label)?.query == "UNLISTEN \"\(stream.channel)\";" }
            try await eventually { released == nil }
            // The pool's connections are back: none is running or holding a transaction.
            let busy = try await TestServer.execute(
                "SELECT count(*)::text FROM pg_stat_activity WHERE application_name = 'ripple-\(label)' AND state <> 'idle'")
            #expect(busy.first?.first == "0")
            await client.shutdown()
        }

        @Test func aKilledConnectionLosesNothingAndDoublesNothing() async throws {
            try await survives(restart: false)
        }

        @Test(.enabled(if: TestServer.ownsServer, "restarts the server: needs the tests' own (POSTGRES_URL is set)"))
        func aServerRestartLosesNothingAndDoublesNothing() async throws {
            try await survives(restart: true)
        }

        /// Appends 300 values, kills every connection of the reading client (its LISTEN connection
        /// and its pool's), appends 300 more, optionally restarts the server and appends 300 more:
        /// the subscriber receives every stored value once, in order.
        private func survives(restart: Bool) async throws {
            let label = TestServer.uniqueName("kill")
            let writer = try TestServer.client("writer-\(label)")
            let reader = try TestServer.client(label)
            let stream = try await makeStream(writer)
            let recorder = Events()
            try reader.stream(stream.name, of: Item.self).publisher(from: .beginning).subscribe(recorder)

            func appendRetrying(_ number: Int) async throws {
                try await eventually(timeout: .seconds(60)) { (try? await stream.append(Item(number: number))) != nil }
            }
            for number in 0..<300 { try await appendRetrying(number) }
            try await recorder.wait(forCount: 100)
            let killed = try await TestServer.execute(
                "SELECT pg_terminate_backend(pid)::text FROM pg_stat_activity WHERE application_name LIKE 'ripple-\(label)%'")
            #expect(!killed.isEmpty)
            for number in 300..<600 { try await appendRetrying(number) }
            try await recorder.wait(forCount: 600)
            if restart {
                try TestServer.restart()
                for number in 600..<900 { try await appendRetrying(number) }
            }
            let expected = restart ? 900 : 600
            try await recorder.wait(forCount: expected, timeout: .seconds(60))
            try await Task.sleep(for: .milliseconds(200))
            // An append whose connection broke at its commit may have committed: the table decides.
            let stored = try await TestServer.execute("SELECT event_offset::text AS o FROM \(stream.name) ORDER BY event_offset")
            #expect(recorder.values.map { String($0.offset) } == stored.map { $0[0]! }, "every stored value once, in order")
            #expect(recorder.values.count >= expected)
            #expect(recorder.completion == nil)
            recorder.cancel()
            await writer.shutdown()
            await reader.shutdown()
        }
    }
}

/// The `LISTEN` connection of the client labelled `label`, as `pg_stat_activity` shows it.
func listenerActivity(_ label: String) async throws -> (query: String, state: String)? {
    let rows = try await TestServer.execute(
        "SELECT query, state FROM pg_stat_activity WHERE application_name = 'ripple-\(label)-listener'")
    guard let row = rows.first, let query = row[0], let state = row[1] else { return nil }
    return (query, state)
}
