import Foundation
import Ripple
import Testing

/// A subscriber that records what it receives and asks for `initial` then `each` more per value.
final class Recorder<Input: Sendable, Failure: Error>: Subscriber, @unchecked Sendable {
    let combineIdentifier = CombineIdentifier()
    private let lock = NSLock()
    private var _values: [Input] = []
    private var _completion: Subscribers.Completion<Failure>?
    private var _subscription: (any Subscription)?
    private var overlapping = 0
    private var _overlapped = false
    private let initial: Subscribers.Demand
    private let each: Subscribers.Demand
    private let onValue: (@Sendable (Input, Int) -> Void)?

    init(initial: Subscribers.Demand = .unlimited, each: Subscribers.Demand = .none,
         onValue: (@Sendable (Input, Int) -> Void)? = nil) {
        self.initial = initial
        self.each = each
        self.onValue = onValue
    }

    func receive(subscription: any Subscription) {
        lock.withLock { _subscription = subscription }
        if initial > .none { subscription.request(initial) }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        let count = lock.withLock { () -> Int in
            overlapping += 1
            if overlapping > 1 { _overlapped = true }
            _values.append(input)
            return _values.count
        }
        onValue?(input, count)
        lock.withLock { overlapping -= 1 }
        return each
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.withLock { _completion = completion }
    }

    var values: [Input] { lock.withLock { _values } }
    var completion: Subscribers.Completion<Failure>? { lock.withLock { _completion } }
    var overlapped: Bool { lock.withLock { _overlapped } }

    func request(_ demand: Subscribers.Demand) {
        lock.withLock { _subscription }?.request(demand)
    }

    func cancel() {
        let subscription = lock.withLock { () -> (any Subscription)? in
            defer { _subscription = nil }
            return _subscription
        }
        subscription?.cancel()
    }

    /// Waits until `condition` holds of the recorder, or fails the test after `timeout`.
    func wait(
        timeout: Duration = .seconds(30), sourceLocation: SourceLocation = #_sourceLocation,
        until condition: (Recorder) -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        while !condition(self) {
            if ContinuousClock.now > deadline {
                Issue.record("timed out: \(values.count) values, completion \(String(describing: completion))",
                             sourceLocation: sourceLocation)
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    func wait(forCount count: Int, timeout: Duration = .seconds(30),
              sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try await wait(timeout: timeout, sourceLocation: sourceLocation) { $0.values.count >= count || $0.completion != nil }
    }
}

/// Polls `condition` until it holds, or fails after `timeout`.
func eventually(
    timeout: Duration = .seconds(20), sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while try await !condition() {
        if ContinuousClock.now > deadline {
            Issue.record("condition never held", sourceLocation: sourceLocation)
            throw CancellationError()
        }
        try await Task.sleep(for: .milliseconds(20))
    }
}

/// The process's resident memory in bytes (Linux: /proc/self/statm).
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}
