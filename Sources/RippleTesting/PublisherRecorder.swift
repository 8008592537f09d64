import Foundation

/// What a ``PublisherRecorder`` saw, in order.
public enum RecordedEvent<Output, Failure: Error> {
    /// A value the publisher sent.
    case value(Output)
    /// The publisher's completion.
    case completion(Subscribers.Completion<Failure>)
}

extension RecordedEvent: Equatable where Output: Equatable, Failure: Equatable {}

/// Thrown by the waiting helpers when what they wait for does not happen in time.
public struct RecordingTimeout: Error, CustomStringConvertible {
    /// What was being waited for.
    public let expectation: String
    /// What had been recorded when time ran out.
    public let recorded: String

    public var description: String { "timed out waiting for \(expectation); recorded so far: \(recorded)" }
}

/// A subscriber that records everything a publisher sends, for tests.
///
/// ```swift
/// let recorder = model.$name.record()
/// model.name = "Ada"
/// #expect(recorder.values == ["", "Ada"])
/// recorder.cancel()
/// ```
///
/// Its demand is configurable: `record(demand: .max(1))` asks for one value, and
/// ``request(_:)`` asks for more. Thread-safe; values may arrive on any thread, and the waiting
/// helpers (`values(count:timeout:)`, `completion(timeout:)`, async or blocking) return as soon as
/// what they wait for has arrived, or throw ``RecordingTimeout``. Works with Swift Testing's
/// `#expect` and with XCTest's `XCTAssert…` alike: it only returns values.
public final class PublisherRecorder<Output, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
    public typealias Input = Output

    private let condition = NSCondition()
    private var recorded: [RecordedEvent<Output, Failure>] = []
    private var subscription: (any Subscription)?
    private var cancelled = false
    private let initialDemand: Subscribers.Demand

    /// Creates a recorder that requests `demand` when it is subscribed (nothing for `.none`).
    public init(demand: Subscribers.Demand = .unlimited) {
        initialDemand = demand
    }

    // MARK: What was recorded

    /// Everything received, in order.
    public var events: [RecordedEvent<Output, Failure>] { condition.withLock { recorded } }

    /// The values received, in order.
    public var values: [Output] {
        events.compactMap { if case .value(let value) = $0 { value } else { nil } }
    }

    /// The completion, once received.
    public var completion: Subscribers.Completion<Failure>? {
        for event in events { if case .completion(let completion) = event { return completion } }
        return nil
    }

    /// Whether the publisher finished normally.
    public var isFinished: Bool {
        if case .finished = completion { return true }
        return false
    }

    /// The failure, if the publisher failed.
    public var failure: Failure? {
        if case .failure(let error) = completion { return error }
        return nil
    }

    // MARK: Demand and cancellation

    /// Requests `demand` more values.
    public func request(_ demand: Subscribers.Demand) {
        condition.withLock { subscription }?.request(demand)
    }

    /// Cancels the subscription; nothing more is recorded.
    public func cancel() {
        let subscription = condition.withLock { () -> (any Subscription)? in
            cancelled = true
            defer { self.subscription = nil }
            return self.subscription
        }
        subscription?.cancel()
    }

    // MARK: Subscriber

    public func receive(subscription: any Subscription) {
        let accepted = condition.withLock { () -> Bool in
            guard self.subscription == nil, !cancelled else { return false }
            self.subscription = subscription
            return true
        }
        guard accepted else {
            subscription.cancel()
            return
        }
        if initialDemand > 0 { subscription.request(initialDemand) }
    }

    public func receive(_ input: Output) -> Subscribers.Demand {
        append(.value(input))
        return .none
    }

    public func receive(completion: Subscribers.Completion<Failure>) {
        append(.completion(completion))
        condition.withLock { subscription = nil }
    }

    private func append(_ event: RecordedEvent<Output, Failure>) {
        condition.withLock {
            guard !cancelled else { return }
            recorded.append(event)
            condition.broadcast()
        }
    }

    // MARK: Waiting

    /// Blocks until at least `count` values have arrived (returns the first `count`), or throws
    /// ``RecordingTimeout`` after `timeout` — or if the publisher completes first.
    ///
    /// ```swift
    /// let values = try recorder.waitForValues(count: 3, timeout: .seconds(1))
    /// ```
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    public func waitForValues(count: Int, timeout: Duration = .seconds(5)) throws -> [Output] {
        try waitForValues(count: count, timeout: timeout.seconds)
    }

    /// Blocks until at least `count` values have arrived, or throws ``RecordingTimeout`` after
    /// `timeout` seconds — or if the publisher completes first.
    public func waitForValues(count: Int, timeout: Double) throws -> [Output] {
        try wait(for: "\(count) values", timeout: timeout) { events in
            let values = events.compactMap { if case .value(let value) = $0 { value } else { nil } }
            if values.count >= count { return .done(Array(values.prefix(count))) }
            return events.contains { if case .completion = $0 { true } else { false } } ? .impossible : .waiting
        }
    }

    /// Blocks until the publisher completes, or throws ``RecordingTimeout`` after `timeout`.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @discardableResult
    public func waitForCompletion(timeout: Duration = .seconds(5)) throws -> Subscribers.Completion<Failure> {
        try waitForCompletion(timeout: timeout.seconds)
    }

    /// Blocks until the publisher completes, or throws ``RecordingTimeout`` after `timeout` seconds.
    @discardableResult
    public func waitForCompletion(timeout: Double) throws -> Subscribers.Completion<Failure> {
        try wait(for: "completion", timeout: timeout) { events in
            for event in events { if case .completion(let completion) = event { return .done(completion) } }
            return .waiting
        }
    }

    /// Waits (without blocking a thread of the cooperative pool) until at least `count` values have
    /// arrived, or throws ``RecordingTimeout`` after `timeout`.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    public func values(count: Int, timeout: Duration = .seconds(5)) async throws -> [Output] {
        try await values(count: count, timeout: timeout.seconds)
    }

    /// Waits until at least `count` values have arrived, or throws ``RecordingTimeout`` after
    /// `timeout` seconds.
    public func values(count: Int, timeout: Double) async throws -> [Output] {
        try await onOwnThread { try self.waitForValues(count: count, timeout: timeout) }
    }

    /// Waits until the publisher completes, or throws ``RecordingTimeout`` after `timeout`.
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    @discardableResult
    public func completion(timeout: Duration = .seconds(5)) async throws -> Subscribers.Completion<Failure> {
        try await completion(timeout: timeout.seconds)
    }

    /// Waits until the publisher completes, or throws ``RecordingTimeout`` after `timeout` seconds.
    @discardableResult
    public func completion(timeout: Double) async throws -> Subscribers.Completion<Failure> {
        try await onOwnThread { try self.waitForCompletion(timeout: timeout) }
    }

    private enum Check<T> {
        case done(T)
        case waiting
        case impossible
    }

    private func wait<T>(for expectation: String, timeout: Double, _ check: ([RecordedEvent<Output, Failure>]) -> Check<T>)
        throws -> T
    {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            switch check(recorded) {
            case .done(let result): return result
            case .impossible: throw RecordingTimeout(expectation: expectation, recorded: "\(recorded)")
            case .waiting: break
            }
            if !condition.wait(until: deadline) {
                if case .done(let result) = check(recorded) { return result }
                throw RecordingTimeout(expectation: expectation, recorded: "\(recorded)")
            }
        }
    }
}

/// Runs blocking `work` on a thread of its own and resumes with its result.
private func onOwnThread<T>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    let box = UncheckedResult<T>()
    return try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            do {
                box.value = try work()
                continuation.resume(returning: box.take())
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }
}

/// Carries a result across the thread hop (T need not be Sendable; one writer, then one reader).
private final class UncheckedResult<T>: @unchecked Sendable {
    var value: T?
    func take() -> T { value! }
}

extension Publisher {
    /// Subscribes a ``PublisherRecorder`` that requests `demand` (all values by default).
    ///
    /// ```swift
    /// let recorder = [1, 2, 3].publisher.map { $0 * 10 }.record()
    /// #expect(recorder.values == [10, 20, 30])
    /// #expect(recorder.isFinished)
    /// ```
    public func record(demand: Subscribers.Demand = .unlimited) -> PublisherRecorder<Output, Failure> {
        let recorder = PublisherRecorder<Output, Failure>(demand: demand)
        subscribe(recorder)
        return recorder
    }
}

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension Duration {
    /// The duration in seconds, as the waits' deadlines take it.
    fileprivate var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
