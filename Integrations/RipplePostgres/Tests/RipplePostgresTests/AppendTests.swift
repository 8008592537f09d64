import Foundation
import PostgresNIO
import Ripple
@testable import RipplePostgres
import Testing

extension PostgresTests {
    @Suite struct AppendTests {
        /// What the appending lanes saw: the offset each returned number got, the numbers whose
        /// append threw, and the appends still running (number → start).
        struct Ledger {
            var returned: [Int: Int64] = [:]
            var failed: [Int: String] = [:]
            var running: [Int: ContinuousClock.Instant] = [:]
            var longest: Duration = .zero
        }

        /// Four lanes append one value after another while the client's pooled connections are
        /// killed (`pg_terminate_backend`) every few tens of milliseconds: every append returns or
        /// throws within the client's operation timeout (the pool once left one waiting for good),
        /// and what is stored is exactly what returned, plus at most the appends that failed.
        @Test func appendsReturnOrFailInTimeWhileTheirConnectionsAreKilled() async throws {
            let label = TestServer.uniqueName("appendkill")
            let client = try TestServer.client(label)
            let timeout = Duration.seconds(10)
            let stream = try client.stream(TestServer.uniqueName("stream"), of: Item.self)
            try await stream.prepare()
            let ledger = Locked(Ledger())
            let stop = Locked(false)
            let clock = ContinuousClock()
            let lanes = (0..<4).map { lane in
                Task {
                    var number = lane * 1_000_000
                    while !stop.withLock({ $0 }) {
                        number += 1
                        let started = clock.now
                        ledger.withLock { $0.running[number] = started }
                        do {
                            let offset = try await stream.append(Item(number: number))
                            ledger.withLock { $0.returned[number] = offset }
                        } catch {
                            ledger.withLock { $0.failed[number] = "\(error)" }
                        }
                        let took = started.duration(to: clock.now)
                        ledger.withLock { ledger in
                            ledger.running[number] = nil
                            ledger.longest = max(ledger.longest, took)
                        }
                    }
                }
            }
            let killing = clock.now + .seconds(5)
            var kills = 0
            while clock.now < killing {
                try await Task.sleep(for: .milliseconds(Int.random(in: 10...60)))
                let killed = try await TestServer.execute(
                    "SELECT pg_terminate_backend(pid)::text FROM pg_stat_activity WHERE application_name = 'ripple-\(label)'")
                kills += killed.count
            }
            stop.withLock { $0 = true }
            // Every append running now must end within the timeout (and some slack for a loaded machine).
            let limit = clock.now + timeout + .seconds(5)
            while !ledger.withLock({ $0.running.isEmpty }) && clock.now < limit {
                try await Task.sleep(for: .milliseconds(20))
            }
            let seen = ledger.withLock { $0 }
            let hung = seen.running.map { "\($0.key) for \($0.value.duration(to: clock.now))" }
            #expect(hung.isEmpty, "appends that never returned: \(hung)")
            guard hung.isEmpty else {
                for lane in lanes { lane.cancel() }
                return
            }
            for lane in lanes { await lane.value }
            #expect(kills > 0)
            #expect(seen.returned.count > 20, "appends kept succeeding between the kills")
            #expect(seen.longest <= timeout + .seconds(2), "the longest append took \(seen.longest)")
            print("appends: \(seen.returned.count) returned, \(seen.failed.count) failed, \(kills) connections killed, longest \(seen.longest)")
            for (error, count) in Dictionary(grouping: seen.failed.values, by: { String($0.prefix(160)) }).mapValues(\.count) {
                print("  \(count) × \(error)")
            }
            // Nothing lost silently: each returned append is stored at its offset; anything else
            // stored is an append that reported a failure; nothing is stored twice.
            let rows = try await TestServer.execute(
                "SELECT event_offset::text, (value->>'number') FROM \(stream.name) ORDER BY event_offset")
            var stored: [Int: Int64] = [:]
            for row in rows {
                let number = Int(row[1]!)!
                #expect(stored[number] == nil, "\(number) stored twice")
                stored[number] = Int64(row[0]!)!
            }
            for (number, offset) in seen.returned {
                #expect(stored[number] == offset, "returned \(number) at \(offset), stored at \(String(describing: stored[number]))")
            }
            for number in stored.keys where seen.returned[number] == nil {
                #expect(seen.failed[number] != nil, "\(number) stored, but its append neither returned nor failed")
            }
            await client.shutdown()
        }
    }
}
