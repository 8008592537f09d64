import Foundation
import Testing

extension PostgresTests {
    /// The example executable (built beside the tests) run as separate OS processes.
    @Suite struct ProcessTests {
        /// The example executable beside the test bundle in the build folder.
        static var example: URL {
            var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            // On Linux the tests run from X.xctest in the build folder; on macOS from X.xctest/Contents/MacOS.
            while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("RipplePostgresExample").path),
                  folder.pathComponents.count > 1 {
                folder.deleteLastPathComponent()
            }
            return folder.appendingPathComponent("RipplePostgresExample")
        }

        /// Starts the example with `arguments`; `output` collects what it prints.
        static func launch(_ arguments: [String]) throws -> (Process, Pipe) {
            let process = Process()
            process.executableURL = example
            process.arguments = arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            process.standardInput = FileHandle.nullDevice
            try process.run()
            return (process, pipe)
        }

        static func finish(_ launched: (Process, Pipe), timeout: Duration = .seconds(90)) async throws -> (Int32, String) {
            let (process, pipe) = launched
            let deadline = ContinuousClock.now + timeout
            let reading = Task.detached { String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }
            while process.isRunning {
                if ContinuousClock.now > deadline {
                    process.terminate()
                    Issue.record("\(process.arguments ?? []) did not finish in time")
                    break
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            process.waitUntilExit()
            return (process.terminationStatus, await reading.value)
        }

        @Test func twoProcessesExchangeTenThousandEventsInOrder() async throws {
            #expect(FileManager.default.isExecutableFile(atPath: Self.example.path), "built beside the tests")
            let url = try TestServer.info().url
            let stream = TestServer.uniqueName("processes")
            let started = ContinuousClock.now
            let consumer = try Self.launch(["verify", "--url", url, "--stream", stream, "--count", "10000"])
            let producer = try Self.launch(["produce", "--url", url, "--stream", stream, "--count", "10000"])
            let (producerStatus, producerOutput) = try await Self.finish(producer)
            let (consumerStatus, consumerOutput) = try await Self.finish(consumer)
            print("two processes, 10,000 events: \(ContinuousClock.now - started)")
            #expect(producerStatus == 0, "\(producerOutput)")
            #expect(producerOutput.contains("appended 10000"))
            #expect(consumerStatus == 0, "\(consumerOutput)")
            #expect(consumerOutput.contains("received 10000 in order"), "\(consumerOutput)")
        }

        @Test func theSharedModelShowsEveryProcesssNotes() async throws {
            let url = try TestServer.info().url
            let stream = TestServer.uniqueName("board")
            let alice = try Self.launch(["model-demo", "--url", url, "--stream", stream, "--count", "5",
                                         "--expect", "10", "--name", "alice"])
            let bob = try Self.launch(["model-demo", "--url", url, "--stream", stream, "--count", "5",
                                       "--expect", "10", "--name", "bob"])
            let (aliceStatus, aliceOutput) = try await Self.finish(alice)
            let (bobStatus, bobOutput) = try await Self.finish(bob)
            #expect(aliceStatus == 0, "\(aliceOutput)")
            #expect(bobStatus == 0, "\(bobOutput)")
            let aliceLines = aliceOutput.split(separator: "\n")
            #expect(aliceLines.count == 10)
            #expect(aliceLines == bobOutput.split(separator: "\n"), "both processes see the same notes in the same order")
            #expect(aliceLines.filter { $0.hasPrefix("bob: ") }.count == 5)
        }
    }
}
