import Foundation
import PostgresNIO
import Ripple
@testable import RipplePostgres
import Testing

extension PostgresTests {
    @Suite struct ConsumerTests {
        typealias Events = Recorder<StreamEvent<Item>, PostgresStreamError>

        @Test func aRestartedConsumerResumesFromItsStoredPosition() async throws {
            let name = TestServer.uniqueName("consumed")
            let first = try TestServer.client()
            let stream = try first.stream(name, of: Item.self)
            try await stream.prepare()
            var offsets: [Int64] = []
            for number in 0..<100 { offsets.append(try await stream.append(Item(number: number))) }

            let consumer = try stream.consumer("worker")
            #expect(try await consumer.storedPosition() == nil)
            let before = Events(initial: .max(40))
            consumer.publisher().subscribe(before)
            try await before.wait(forCount: 40)
            try await eventually { try await consumer.storedPosition() == offsets[39] }
            before.cancel()
            await first.shutdown()

            // A new client, as a restarted process has.
            let second = try TestServer.client()
            let resumed = try second.stream(name, of: Item.self).consumer("worker")
            let after = Events()
            resumed.publisher().subscribe(after)
            try await after.wait(forCount: 60)
            try await Task.sleep(for: .milliseconds(100))
            #expect(before.values.map(\.value.number) == Array(0..<40))
            #expect(after.values.map(\.value.number) == Array(40..<100))
            try await eventually { try await resumed.storedPosition() == offsets[99] }
            after.cancel()
            await second.shutdown()
        }

        @Test func manualCommitStoresOnlyWhatYouCommit() async throws {
            let client = try TestServer.client()
            let stream = try client.stream(TestServer.uniqueName("manual"), of: Item.self)
            try await stream.prepare()
            for number in 0..<10 { try await stream.append(Item(number: number)) }
            let consumer = try stream.consumer("manual")
            let recorder = Events()
            consumer.publisher(commit: .manual).subscribe(recorder)
            try await recorder.wait(forCount: 10)
            #expect(try await consumer.storedPosition() == nil)
            try await consumer.commit(recorder.values[4].offset)
            recorder.cancel()
            let again = Events()
            consumer.publisher(commit: .manual).subscribe(again)
            try await again.wait(forCount: 5)
            try await Task.sleep(for: .milliseconds(100))
            #expect(again.values.map(\.value.number) == Array(5..<10))
            again.cancel()
            await client.shutdown()
        }

        @Test func anAppendInsideARolledBackTransactionNeverHappened() async throws {
            let client = try TestServer.client()
            let stream = try client.stream(TestServer.uniqueName("tx"), of: Item.self)
            try await stream.prepare()
            let recorder = Events()
            stream.publisher(from: .beginning).subscribe(recorder)
            struct Abort: Error {}
            await #expect(throws: Abort.self) {
                try await client.withTransaction { connection in
                    try await stream.append(Item(number: 1), on: connection)
                    throw Abort()
                }
            }
            try await client.withTransaction { connection in
                try await stream.append(Item(number: 2), on: connection)
            }
            try await recorder.wait(forCount: 1)
            try await Task.sleep(for: .milliseconds(200))
            #expect(recorder.values.map(\.value.number) == [2])
            recorder.cancel()
            await client.shutdown()
        }

        @Test func processNextAppliesEachWriteExactlyOnce() async throws {
            let client = try TestServer.client()
            let stream = try client.stream(TestServer.uniqueName("exactly"), of: Item.self)
            try await stream.prepare()
            let sideTable = "\(stream.name)_totals"
            _ = try await TestServer.execute("CREATE TABLE \(sideTable) (number int NOT NULL)")
            for number in 0..<20 { try await stream.append(Item(number: number)) }
            let consumer = try stream.consumer("summer")

            struct Crash: Error {}
            // A "crash" half-way through the 8th value: its write and its position roll back.
            await #expect(throws: (any Error).self) {
                try await consumer.processNext(limit: 100) { event, connection in
                    try await connection.query(
                        "INSERT INTO \(unescaped: sideTable) (number) VALUES (\(event.value.number))", logger: client.logger)
                    if event.value.number == 7 { throw Crash() }
                }
            }
            #expect(try await consumer.storedPosition() == 7)
            let processed = try await consumer.processNext(limit: 100) { event, connection in
                try await connection.query(
                    "INSERT INTO \(unescaped: sideTable) (number) VALUES (\(event.value.number))", logger: client.logger)
            }
            #expect(processed == 13)
            #expect(try await consumer.processNext { _, _ in } == 0)
            let rows = try await TestServer.execute("SELECT number::text AS n FROM \(sideTable) ORDER BY number")
            #expect(rows.map { Int($0[0]!)! } == Array(0..<20), "each value's write once")
            await client.shutdown()
        }
    }
}
