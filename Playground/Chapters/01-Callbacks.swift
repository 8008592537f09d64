import Dispatch
import Ripple

/// Chapter 1: bringing a callback-style API into streams, with a subject and with a Future.
struct CallbacksChapter: Chapter {
    let title = "Bridging callbacks into streams"
    let summary = """
        A legacy API reports through callbacks on its own queue. A PassthroughSubject turns a callback
        that fires many times into a stream; a Future turns a one-shot completion handler into a
        publisher (and into `await`).
        """

    func run() async {
        await subjectFromRepeatingCallback()
        await futureFromCompletionHandler()
    }

    // MARK: Example 1.1 — a callback that fires many times → PassthroughSubject

    private func subjectFromRepeatingCallback() async {
        show("Example 1.1: a thermometer that calls back with readings (on its own queue)")
        let thermometer = LegacyThermometer(readings: [20.5, 20.5, 21.0, 85.0, 21.5, 21.5, 22.0])
        let readings = PassthroughSubject<Double, ThermometerError>()

        // The bridge: every callback becomes a `send`, the error callback becomes a completion.
        thermometer.onReading = { readings.send($0) }
        thermometer.onFailure = { readings.send(completion: .failure($0)) }
        thermometer.onStop = { readings.send(completion: .finished) }

        let finished = Signal()
        let cancellable = readings
            .filter { $0 < 50 }  // drop the sensor glitch
            .removeDuplicates()  // only changes matter
            .map { String(format2: $0) + " °C" }
            .sink(
                receiveCompletion: { completion in
                    show("  completion: \(completion)")
                    finished.fire()
                },
                receiveValue: { show("  reading: \($0)") })
        thermometer.start()
        await finished.wait()
        cancellable.cancel()
        show("  (85.0 was filtered, repeats were removed)")
        print("")
    }

    // MARK: Example 1.2 — a one-shot completion handler → Future

    private func futureFromCompletionHandler() async {
        show("Example 1.2: a user lookup with a completion handler")
        let directory = LegacyUserDirectory()

        // A Future runs its closure at once — the request goes out when the Future is created.
        let lookup = Future<String, LookupError> { promise in
            show("  Future created: request sent for user 7")
            directory.fetchName(id: 7) { result in promise(result) }
        }
        let first = Signal()
        let a = lookup.sink(
            receiveCompletion: { show("  subscriber A completion: \($0)"); first.fire() },
            receiveValue: { show("  subscriber A got \"\($0)\"") })
        await first.wait()

        // A late subscriber gets the stored result; nothing is requested again.
        let b = lookup.sink(
            receiveCompletion: { show("  subscriber B completion: \($0)") },
            receiveValue: { show("  subscriber B got \"\($0)\" (stored, no second request)") })

        // Deferred makes it lazy: one request per subscriber, only when subscribed.
        let lazy = Deferred {
            Future<String, LookupError> { promise in
                show("  Deferred subscribed: request sent for user 0")
                directory.fetchName(id: 0) { promise($0) }
            }
        }
        show("  Deferred created: nothing sent yet")
        do {
            _ = try await lazy.first().values.first { _ in true }
        } catch {
            show("  awaiting the deferred lookup threw: \(error)")
        }

        // And straight into async code.
        do {
            let name = try await lookup.value
            show("  try await lookup.value → \"\(name)\"")
        } catch {
            show("  unexpected: \(error)")
        }
        a.cancel()
        b.cancel()
    }
}

// MARK: The "legacy" APIs

enum ThermometerError: Error {
    case sensorUnplugged
}

enum LookupError: Error, CustomStringConvertible {
    case notFound(Int)
    var description: String {
        switch self {
        case .notFound(let id): "notFound(\(id))"
        }
    }
}

/// Calls back with each reading on a background queue, then stops.
final class LegacyThermometer: @unchecked Sendable {
    var onReading: (@Sendable (Double) -> Void)?
    var onFailure: (@Sendable (ThermometerError) -> Void)?
    var onStop: (@Sendable () -> Void)?
    private let readings: [Double]
    private let queue = DispatchQueue(label: "thermometer")

    init(readings: [Double]) {
        self.readings = readings
    }

    func start() {
        queue.async { [self] in
            for reading in readings { onReading?(reading) }
            onStop?()
        }
    }
}

/// Looks up a name and calls back once, on a background queue.
final class LegacyUserDirectory: Sendable {
    private let queue = DispatchQueue(label: "directory")

    func fetchName(id: Int, completion: @escaping @Sendable (Result<String, LookupError>) -> Void) {
        queue.asyncAfter(deadline: .now() + .milliseconds(20)) {
            completion(id > 0 ? .success("Ada #\(id)") : .failure(.notFound(id)))
        }
    }
}

/// A one-time signal an async chapter can wait for.
final class Signal: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    func fire() { semaphore.signal() }
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                self.semaphore.wait()
                continuation.resume()
            }
        }
    }
}

extension String {
    /// Formats a number with one decimal (no Foundation needed).
    init(format2 value: Double) {
        let tenths = Int((value * 10).rounded())
        self = "\(tenths / 10).\(abs(tenths % 10))"
    }
}
