import Foundation
import PostgresNIO
import Ripple
@testable import RipplePostgres
import Testing

struct Ping: Codable, Sendable, Equatable {
    var id: Int
    var text: String = ""
}

extension PostgresTests {
    @Suite struct ChannelTests {
        typealias Events = Recorder<PostgresChannel<Ping>.Event, PostgresChannelError>
        typealias Event = PostgresChannel<Ping>.Event

        @Test func listensThenDeliversInOrder() async throws {
            let client = try TestServer.client()
            let channel = try client.channel(TestServer.uniqueName("chan"), of: Ping.self)
            let recorder = Events()
            channel.subscribe(recorder)
            try await recorder.wait(forCount: 1)
            #expect(recorder.values == [.listening])
            for id in 0..<50 { try await channel.send(Ping(id: id)) }
            try await recorder.wait(forCount: 51)
            #expect(recorder.values.dropFirst().map { $0.message?.id } == Array(0..<50))
            #expect(!recorder.overlapped)
            recorder.cancel()
            await client.shutdown()
        }

        @Test func oneListenConnectionForAllSubscribersAndUnlistenAfterTheLast() async throws {
            let label = TestServer.uniqueName("unlisten")
            let client = try TestServer.client(label)
            let channel = try client.channel(TestServer.uniqueName("chan"), of: Ping.self)
            let first = Events()
            let second = Events()
            channel.subscribe(first)
            channel.subscribe(second)
            try await first.wait(forCount: 1)
            try await second.wait(forCount: 1)
            let listeners = try await TestServer.execute(
                "SELECT count(*)::text FROM pg_stat_activity WHERE application_name = 'ripple-\(label)-listener'")
            #expect(listeners.first?.first == "1")
            try await channel.send(Ping(id: 1))
            try await first.wait(forCount: 2)
            try await second.wait(forCount: 2)
            first.cancel()
            try await Task.sleep(for: .milliseconds(200))
            #expect(try await listenerActivity(label)?.query.hasPrefix("UNLISTEN") == false, "one subscriber left")
            try await channel.send(Ping(id: 2))
            try await second.wait(forCount: 3)
            #expect(first.values.count == 2)
            second.cancel()
            try await eventually { try await listenerActivity(label)?.query == "UNLISTEN \"\(channel.name)\";" }
            try await eventually { try await listenerActivity(label)?.state == "idle" }
            await client.shutdown()
        }

        /// A subscriber joining a channel the client already listens to, while messages pour in:
        /// its handler is registered before its `LISTEN` is confirmed, and what it hears meanwhile
        /// must wait behind `.listening`.
        @Test func everySubscriberHearsListeningFirstWhileMessagesArrive() async throws {
            let client = try TestServer.client()
            let sender = try TestServer.client()
            let channel = try client.channel(TestServer.uniqueName("busy"), of: Ping.self)
            let sending = try sender.channel(channel.name, of: Ping.self)
            let first = Events()
            channel.subscribe(first)
            try await first.wait(forCount: 1)
            let flooding = Task {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for lane in 0..<4 {
                        group.addTask {
                            var id = lane * 1_000_000
                            while !Task.isCancelled {
                                try await sending.send(Ping(id: id))
                                id += 1
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
            try await first.wait(forCount: 20)
            var joined: [Events] = []
            for _ in 0..<20 {
                let recorder = Events()
                channel.subscribe(recorder)
                try await recorder.wait(forCount: 3)
                joined.append(recorder)
            }
            flooding.cancel()
            _ = await flooding.result
            for recorder in joined {
                #expect(recorder.values.first == .listening, "first events: \(recorder.values.prefix(3))")
                #expect(recorder.values.filter { $0 == .listening }.count == 1)
                #expect(!recorder.overlapped)
                recorder.cancel()
            }
            #expect(first.values.first == .listening)
            first.cancel()
            await client.shutdown()
            await sender.shutdown()
        }

        @Test func anOversizedPayloadFailsBeforeAnythingIsSent() async throws {
            let client = try TestServer.client()
            let channel = try client.channel(TestServer.uniqueName("big"), of: Ping.self)
            let recorder = Events()
            channel.subscribe(recorder)
            try await recorder.wait(forCount: 1)
            let big = Ping(id: 1, text: String(repeating: "x", count: 8000))
            let bytes = try JSONEncoder().encode(big).count
            await #expect(throws: PostgresEventError.payloadTooLarge(channel: channel.name, bytes: bytes)) {
                try await channel.send(big)
            }
            try await channel.send(Ping(id: 2, text: String(repeating: "y", count: 7900)))
            try await recorder.wait(forCount: 2)
            try await Task.sleep(for: .milliseconds(100))
            #expect(recorder.values.dropFirst().map { $0.message?.id } == [2], "the oversized one never went out")
            recorder.cancel()
            await client.shutdown()
        }

        @Test func anUndecodablePayloadFails() async throws {
            let client = try TestServer.client()
            let channel = try client.channel(TestServer.uniqueName("bad"), of: Ping.self)
            let recorder = Events()
            channel.subscribe(recorder)
            try await recorder.wait(forCount: 1)
            _ = try await TestServer.execute("NOTIFY \(channel.name), 'not json'")
            try await recorder.wait { $0.completion != nil }
            guard case .failure(.undecodable(let payload, _)) = recorder.completion else {
                Issue.record("expected undecodable, got \(String(describing: recorder.completion))")
                return
            }
            #expect(payload == "not json")
            await client.shutdown()
        }

        @Test func aFullBufferDropsTheNewestAndSaysHowMany() async throws {
            let client = try TestServer.client()
            let channel = try client.channel(TestServer.uniqueName("slow"), of: Ping.self, bufferSize: 5)
            let recorder = Events(initial: .max(1))
            channel.subscribe(recorder)
            try await recorder.wait(forCount: 1)
            for id in 0..<12 { try await channel.send(Ping(id: id)) }
            // A marker the test can see arrive: sent last, dropped too (the buffer is full).
            try await Task.sleep(for: .milliseconds(500))
            recorder.request(.unlimited)
            try await recorder.wait(forCount: 7)
            try await channel.send(Ping(id: 100))
            try await recorder.wait(forCount: 8)
            let messages: [Event] = (0..<5).map { Event.message(Ping(id: $0)) }
            let expected: [Event] = [Event.listening] + messages + [Event.gap(.bufferOverflow(dropped: 7)), Event.message(Ping(id: 100))]
            #expect(recorder.values == expected)
            recorder.cancel()
            await client.shutdown()
        }

        @Test func aReconnectIsReportedAsAGap() async throws {
            let label = TestServer.uniqueName("gap")
            let client = try TestServer.client(label)
            let sender = try TestServer.client()
            let channel = try client.channel(TestServer.uniqueName("chan"), of: Ping.self)
            let sending = try sender.channel(channel.name, of: Ping.self)
            let recorder = Events()
            channel.subscribe(recorder)
            try await recorder.wait(forCount: 1)
            try await sending.send(Ping(id: 0))
            try await recorder.wait(forCount: 2)
            _ = try await TestServer.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'ripple-\(label)-listener'")
            // Keep sending until one arrives on the new connection.
            var id = 1
            try await eventually {
                try await sending.send(Ping(id: id))
                id += 1
                return recorder.values.contains { $0.message.map { $0.id > 0 } ?? false }
            }
            let afterFirst = Array(recorder.values.dropFirst(2))
            #expect(afterFirst.first == .gap(.reconnected), "the gap comes before anything heard after the reconnect")
            #expect(afterFirst.filter { $0 == .gap(.reconnected) }.count == 1)
            recorder.cancel()
            await client.shutdown()
            await sender.shutdown()
        }
    }
}
