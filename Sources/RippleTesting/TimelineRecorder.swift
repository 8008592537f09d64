import Foundation

/// A subscriber that records what a publisher sends together with the instant it arrived on a
/// scheduler's clock — usually a ``TestScheduler`` — and renders the recording as a marble diagram.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let subject = PassthroughSubject<String, Never>()
/// let recorder = subject.delay(for: .milliseconds(100), scheduler: scheduler).record(on: scheduler)
/// subject.send("a")
/// scheduler.advance(by: .milliseconds(300))
/// subject.send(completion: .finished)
/// scheduler.advance(by: .milliseconds(100))
/// #expect(recorder.marbles(frame: .milliseconds(100)) == "-a--|")
/// ```
///
/// Thread-safe; the instant of each event is the scheduler's `now` when it arrives.
public final class TimelineRecorder<Output, Failure: Error, Clock: Scheduler>: Subscriber, Cancellable,
    @unchecked Sendable
{
    /// The recorder's input is the publisher's output.
    public typealias Input = Output

    private struct State {
        var recorded: [(time: Clock.SchedulerTimeType, event: RecordedEvent<Output, Failure>)] = []
        var subscription: (any Subscription)?
        var cancelled = false
    }

    private let state = LockedValue(State())
    private let initialDemand: Subscribers.Demand
    private let clock: Clock

    /// The instant the recording started: frame 0 of its marble diagrams.
    public let start: Clock.SchedulerTimeType

    /// Creates a recorder that reads time from `clock` and requests `demand` when subscribed.
    public init(clock: Clock, demand: Subscribers.Demand = .unlimited) {
        self.clock = clock
        start = clock.now
        initialDemand = demand
    }

    /// Everything received with the instant it arrived, in order.
    public var timedEvents: [(time: Clock.SchedulerTimeType, event: RecordedEvent<Output, Failure>)] {
        state.withLock { $0.recorded }
    }

    /// Everything received, in order.
    public var events: [RecordedEvent<Output, Failure>] { timedEvents.map(\.event) }

    /// The values received, in order.
    public var values: [Output] {
        events.compactMap { if case .value(let value) = $0 { value } else { nil } }
    }

    /// The completion, once received.
    public var completion: Subscribers.Completion<Failure>? {
        for event in events { if case .completion(let completion) = event { return completion } }
        return nil
    }

    /// Asks the publisher for more values.
    public func request(_ demand: Subscribers.Demand) {
        state.withLock { $0.subscription }?.request(demand)
    }

    /// Cancels the subscription; nothing more is recorded.
    public func cancel() {
        let leaving = state.withLock { state -> (any Subscription)? in
            state.cancelled = true
            defer { state.subscription = nil }
            return state.subscription
        }
        leaving?.cancel()
    }

    /// Keeps the subscription and requests the initial demand.
    public func receive(subscription: any Subscription) {
        let accepted = state.withLock { state -> Bool in
            guard !state.cancelled, state.subscription == nil else { return false }
            state.subscription = subscription
            return true
        }
        guard accepted else {
            subscription.cancel()
            return
        }
        if initialDemand > 0 { subscription.request(initialDemand) }
    }

    /// Records the value at the clock's current instant.
    public func receive(_ input: Output) -> Subscribers.Demand {
        append(.value(input))
        return .none
    }

    /// Records the completion at the clock's current instant.
    public func receive(completion: Subscribers.Completion<Failure>) {
        append(.completion(completion))
        let leaving = state.withLock { state -> (any Subscription)? in
            defer { state.subscription = nil }
            return state.subscription
        }
        _ = leaving
    }

    private func append(_ event: RecordedEvent<Output, Failure>) {
        let time = clock.now
        state.withLock { state in
            guard !state.cancelled else { return }
            state.recorded.append((time, event))
        }
    }

    // MARK: Marble diagrams

    /// The recording as a marble diagram: one character per `frame` of the clock from ``start``,
    /// `-` for a frame with nothing, a value's label, `|` for finishing, `#` for a failure, and
    /// `(ab)` for several events in one frame.
    ///
    /// - Parameters:
    ///   - frame: How much time one character stands for.
    ///   - label: The one-character label of a value; `nil` (or a longer text) shows as `?`.
    ///     By default a value whose description is one character long is its own label.
    public func marbles(frame: Clock.SchedulerTimeType.Stride, label: (Output) -> Character? = defaultMarbleLabel)
        -> String
    {
        MarbleDiagram.render(timedEvents, start: start, frame: frame, label: label).diagram
    }

    /// Compares the recording with an expected marble diagram, for an assertion that shows both
    /// timelines one above the other when they differ.
    ///
    /// ```swift
    /// let comparison = recorder.compare(toMarbles: "-a--b-|", frame: .milliseconds(100))
    /// #expect(comparison.matches, "\(comparison)")
    /// ```
    ///
    /// Spaces in `expected` are ignored (use them to align diagrams); without a completion, trailing
    /// `-` are not significant.
    public func compare(
        toMarbles expected: String, frame: Clock.SchedulerTimeType.Stride,
        label: (Output) -> Character? = defaultMarbleLabel
    ) -> MarbleComparison {
        let rendered = MarbleDiagram.render(timedEvents, start: start, frame: frame, label: label)
        return MarbleComparison(expected: expected, actual: rendered.diagram, unlabelled: rendered.unlabelled)
    }
}

extension TimelineRecorder where Output: Equatable {
    /// The recording as a marble diagram, labelling values through `values` (as in
    /// `["a": "swift", "b": "swiftui"]`); a value not in the table shows as `?`.
    public func marbles(frame: Clock.SchedulerTimeType.Stride, values: [Character: Output]) -> String {
        marbles(frame: frame, label: Self.labels(values))
    }

    /// Compares the recording with `expected`, whose letters stand for the values in `values`.
    public func compare(
        toMarbles expected: String, frame: Clock.SchedulerTimeType.Stride, values: [Character: Output]
    ) -> MarbleComparison {
        compare(toMarbles: expected, frame: frame, label: Self.labels(values))
    }

    private static func labels(_ values: [Character: Output]) -> (Output) -> Character? {
        let table = values.sorted { $0.key < $1.key }
        return { value in table.first { $0.value == value }?.key }
    }
}

/// The label a value has in a marble diagram by default: its description, if that is one
/// character long.
@usableFromInline
func defaultMarbleLabel<Value>(_ value: Value) -> Character? {
    let text = String(describing: value)
    return text.count == 1 ? text.first : nil
}

extension Publisher {
    /// Subscribes a ``TimelineRecorder`` that stamps each event with `clock`'s current instant.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// let recorder = model.$results.record(on: scheduler)
    /// ```
    public func record<Clock: Scheduler>(on clock: Clock, demand: Subscribers.Demand = .unlimited)
        -> TimelineRecorder<Output, Failure, Clock>
    {
        let recorder = TimelineRecorder<Output, Failure, Clock>(clock: clock, demand: demand)
        subscribe(recorder)
        return recorder
    }
}
