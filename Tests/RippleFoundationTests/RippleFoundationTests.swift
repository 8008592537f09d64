import RippleFoundation
import Testing

/// Collects values from any thread.
final class Box<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value { lock.withLock { stored } }
    func update(_ body: (inout Value) -> Void) { lock.withLock { body(&stored) } }
}

/// Runs this thread's run loop in 5 ms slices until `condition` holds or `seconds` pass.
///
/// A run loop with no sources returns at once, and a test thread is a worker of Dispatch's global
/// pool, which on a single processor is one worker wide: spinning here would keep the work being
/// waited for (an operation queue's, a global queue's) from ever getting that worker. So whatever
/// is left of a slice the run loop did not wait is slept, which Dispatch sees as a blocked worker.
func waitUntil(_ seconds: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        let slice = Date().addingTimeInterval(0.005)
        RunLoop.current.run(until: slice)
        if Date() < slice { Thread.sleep(until: slice) }
    }
    return condition()
}

@Suite struct NotificationCenterPublisherTests {
    static let name = Notification.Name("RippleTestNotification")

    @Test func deliversPostedNotificationsUntilCancelled() {
        let center = NotificationCenter()
        let received = Box<[String]>([])
        let cancellable = center.publisher(for: Self.name)
            .compactMap { $0.userInfo?["text"] as? String }
            .sink { text in received.update { $0.append(text) } }
        center.post(name: Self.name, object: nil, userInfo: ["text": "a"])
        center.post(name: Notification.Name("Other"), object: nil, userInfo: ["text": "x"])
        center.post(name: Self.name, object: nil, userInfo: ["text": "b"])
        cancellable.cancel()
        center.post(name: Self.name, object: nil, userInfo: ["text": "c"])
        #expect(received.value == ["a", "b"])
    }

    @Test func filtersByObjectAndRespectsDemand() {
        let center = NotificationCenter()
        let sender = NSObject()
        let received = Box(0)
        let subscriber = AnySubscriber<Notification, Never>(
            receiveSubscription: { $0.request(.max(1)) },
            receiveValue: { _ in received.update { $0 += 1 }; return .none },
            receiveCompletion: nil)
        center.publisher(for: Self.name, object: sender).subscribe(subscriber)
        center.post(name: Self.name, object: NSObject())
        center.post(name: Self.name, object: sender)
        center.post(name: Self.name, object: sender)  // no demand left: dropped
        #expect(received.value == 1)
    }
}

@Suite struct TimerPublisherTests {
    @Test func ticksOnTheRunLoopAfterConnectAndStopsWhenCancelled() {
        let ticks = Box(0)
        let cancellable = Timer.publish(every: 0.01, on: .current, in: .default)
            .autoconnect()
            .sink { _ in ticks.update { $0 += 1 } }
        #expect(waitUntil { ticks.value >= 3 })
        cancellable.cancel()
        let stopped = ticks.value
        RunLoop.current.run(until: Date().addingTimeInterval(0.05))
        #expect(ticks.value == stopped)
    }

    /// Combine's first tick comes one interval after connecting (Linux's
    /// `Timer(timeInterval:repeats:block:)` would fire at once).
    @Test func theFirstTickComesOneIntervalAfterConnecting() {
        let firstTick = Box<Date?>(nil)
        let connected = Date()
        let cancellable = Timer.publish(every: 0.2, on: .current, in: .default)
            .autoconnect()
            .sink { date in firstTick.update { $0 = $0 ?? date } }
        RunLoop.current.run(until: connected.addingTimeInterval(0.1))
        #expect(firstTick.value == nil)
        #expect(waitUntil { firstTick.value != nil })
        let delay = firstTick.value.map { $0.timeIntervalSince(connected) } ?? 0
        #expect(delay >= 0.19)
        cancellable.cancel()
    }

    @Test func nothingBeforeConnect() {
        let ticks = Box(0)
        let publisher = Timer.publish(every: 0.005, on: .current, in: .default)
        let cancellable = publisher.sink { _ in ticks.update { $0 += 1 } }
        RunLoop.current.run(until: Date().addingTimeInterval(0.03))
        #expect(ticks.value == 0)
        cancellable.cancel()
    }
}

@Suite struct FoundationCodingTests {
    struct Point: Codable, Equatable {
        var x: Int
        var y: Int
    }

    @Test func jsonRoundTrip() {
        let received = Box<[Point]>([])
        let cancellable = Just(Point(x: 1, y: 2))
            .encode(encoder: JSONEncoder())
            .decode(type: Point.self, decoder: JSONDecoder())
            .sink(receiveCompletion: { _ in }, receiveValue: { point in received.update { $0.append(point) } })
        #expect(received.value == [Point(x: 1, y: 2)])
        _ = cancellable
    }

    @Test func decodingErrorFails() {
        let failure = Box<String?>(nil)
        let cancellable = Just(Data("not json".utf8))
            .decode(type: Point.self, decoder: JSONDecoder())
            .sink(receiveCompletion: { completion in
                if case .failure(let error) = completion { failure.update { $0 = "\(type(of: error))" } }
            }, receiveValue: { _ in })
        #expect(failure.value == "DecodingError")
        _ = cancellable
    }
}

@Suite struct CompletionHandlerFutureTests {
    func legacyLoad(succeed: Bool, completion: @escaping @Sendable (String?, (any Error)?) -> Void) {
        DispatchQueue.global().async {
            succeed ? completion("loaded", nil) : completion(nil, URLError(.badURL))
        }
    }

    @Test func valueAndError() async throws {
        let value = try await Future<String, any Error>(completionHandler: { done in legacyLoad(succeed: true, completion: done) }).value
        #expect(value == "loaded")
        await #expect(throws: URLError.self) {
            _ = try await Future<String, any Error>(completionHandler: { done in legacyLoad(succeed: false, completion: done) }).value
        }
    }

    @Test func neitherValueNorErrorFails() async {
        await #expect(throws: MissingValueError.self) {
            _ = try await Future<String, any Error>(completionHandler: { done in done(nil, nil) }).value
        }
    }
}

@Suite struct FoundationSchedulerTests {
    @Test func runLoopSchedulesNowLaterAndRepeating() {
        let runLoop = RunLoop.current
        let events = Box<[String]>([])
        runLoop.schedule { events.update { $0.append("now") } }
        runLoop.schedule(after: runLoop.now.advanced(by: .milliseconds(20))) { events.update { $0.append("later") } }
        let repeating = runLoop.schedule(after: runLoop.now, interval: .milliseconds(5)) {
            events.update { $0.append("tick") }
        }
        #expect(waitUntil { events.value.contains("later") && events.value.filter { $0 == "tick" }.count >= 2 })
        repeating.cancel()
        #expect(events.value.first == "now" || events.value.first == "tick")
        #expect(RunLoop.SchedulerTimeType.Stride.milliseconds(1500).timeInterval == 1.5)
    }

    @Test func operationQueueDeliversViaReceiveOn() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let values = Box<[Int]>([])
        let cancellable = [1, 2, 3].publisher.receive(on: queue).sink { value in values.update { $0.append(value) } }
        #expect(waitUntil { values.value == [1, 2, 3] })
        let later = Box(false)
        queue.schedule(after: queue.now.advanced(by: .milliseconds(10))) { later.update { $0 = true } }
        #expect(waitUntil { later.value })
        cancellable.cancel()
    }
}
