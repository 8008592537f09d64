import Observation
import Ripple

// `Observations` arrived with Swift 6.2 (and, on Apple platforms, with the 2025 systems): older
// toolchains build RippleObservation without this publisher.
#if compiler(>=6.2)

/// A Ripple publisher of an expression over `@Observable` models: its value on subscription, then
/// its new value after changes Observation reports for what it read.
///
/// ```swift
/// @Observable final class Counter { var value = 0 }
/// let counter = Counter()
/// let cancellable = ObservedPublisher { counter.value * 10 }.sink { print($0) }
/// counter.value = 2
/// // Prints "0", then (shortly after the change) "20"
/// ```
///
/// Built on the toolchain's `Observations` sequence, so new values are read after the change is
/// stored and arrive asynchronously; changes made in one burst coalesce into one value. The first
/// value is evaluated synchronously, so a subscriber always starts with the current value. Later
/// values are evaluated off the subscriber's thread, so `expression` is `@Sendable`: the models it
/// captures must be `Sendable` (an `@Observable` class is not by itself: keep its state behind a
/// lock and mark it `@unchecked Sendable`, or isolate it to an actor and read it there).
/// Needs a Swift 6.2 toolchain, and on Apple platforms the systems that have `Observations`.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
public struct ObservedPublisher<Output: Sendable>: Publisher, Sendable {
    public typealias Failure = Never

    private let expression: @Sendable () -> Output

    /// Creates a publisher of `expression`, re-evaluated whenever Observation reports a change to
    /// something it read.
    public init(_ expression: @escaping @Sendable () -> Output) {
        self.expression = expression
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        let initial = expression()
        let subject = CurrentValueSubject<Output, Never>(initial)
        let expression = self.expression
        let task = Task {
            var first = true
            for await value in Observations(expression) {
                // `Observations` starts with the current value, which the subscriber already has.
                // If something changed in between it is a new value and must be sent; when values
                // cannot be compared, sending a possible repeat beats losing a change.
                if first {
                    first = false
                    if isSameValue(value, initial) { continue }
                }
                subject.send(value)
            }
        }
        subject
            .handleEvents(receiveCancel: { task.cancel() })
            .receive(subscriber: subscriber)
    }
}

/// Whether `a == b`, when the values are `Equatable`; `false` when they cannot be compared.
private func isSameValue<T>(_ a: T, _ b: T) -> Bool {
    guard let a = a as? any Equatable else { return false }
    func equals<E: Equatable>(_ lhs: E) -> Bool {
        (b as? E) == lhs
    }
    return equals(a)
}
#endif
