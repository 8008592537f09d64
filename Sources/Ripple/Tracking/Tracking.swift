/// Runs `apply`, recording the tracked properties it reads, and calls `onChange` once — before the
/// first of them changes.
///
/// Like Observation's `withObservationTracking`: property-level (a change to a property `apply`
/// did not read does not fire), one-shot, and nested scopes report their reads to the enclosing one.
///
/// ```swift
/// final class Basket: ObservableObject {
///     @Published var apples = 0
///     @Published var peaches = 0
/// }
/// let basket = Basket()
/// withTracking { _ = basket.apples } onChange: { event in print("changing:", event) }
/// basket.peaches += 1  // not read: nothing
/// basket.apples += 1
/// // Prints "changing: willSet apples of Basket"
/// ```
///
/// There is nothing to cancel: `onChange` runs at most once, on the thread whose write fires it.
///
/// Differs from Observation: `onChange` fires exactly once even when several threads write at the
/// same moment, and it receives a ``TrackingEvent`` naming the object and the property.
@discardableResult
public func withTracking<T, E: Error>(
    _ apply: () throws(E) -> T, onChange: @escaping @Sendable (TrackingEvent) -> Void
) throws(E) -> T {
    try trackOnce(apply, phase: .willSet, onChange: onChange)  // RippleCore, beside the scopes it uses
}

/// Runs `apply`, recording what it reads, and calls `onChange` once, in the given phase, when the
/// first of those properties changes.
///
/// With `.didSet` the new value is readable inside `onChange`; a write that lands between the read
/// in `apply` and the arming of the observer is not lost (it fires at once).
@discardableResult
public func withTracking<T, E: Error>(
    _ apply: () throws(E) -> T, phase: TrackingPhase, onChange: @escaping @Sendable (TrackingEvent) -> Void
) throws(E) -> T {
    try trackOnce(apply, phase: phase, onChange: onChange)  // RippleCore, beside the scopes it uses
}

/// Runs `apply` once and calls `onChange` for **every** later change, in `phase`, of the properties
/// it read — until the returned token is cancelled or released.
///
/// The observer stays armed: no re-arming by hand, and so no write can fall between two armings.
/// The set of properties is the one `apply` read; to follow a set that changes, use ``observe(on:isolation:_:)``.
///
/// `onChange` runs on the thread that made the change, so writes on several threads call it on
/// several threads at once. Cancelling the token (or releasing it) is final: once `cancel()`
/// returns, no call starts and none is still running on another thread — calls under way when it
/// ran are waited for. A cancel from inside `onChange` does not wait (a call under way on another
/// thread may still finish); no call starts after it either.
///
/// ```swift
/// let token = track({ _ = basket.apples }, phase: .didSet) { _ in print("apples:", basket.apples) }
/// basket.apples = 1
/// basket.apples = 2
/// // Prints "apples: 1", then "apples: 2"
/// ```
public func track(
    _ apply: () -> Void, phase: TrackingPhase = .didSet, onChange: @escaping @Sendable (TrackingEvent) -> Void
) -> AnyCancellable {
    trackContinuously(apply, phase: phase, onChange: onChange)  // RippleCore, beside the observers
}
