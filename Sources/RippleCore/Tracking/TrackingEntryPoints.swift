import RippleTrackingTypes  // TrackingEvent, TrackingPhase (not re-exported: Ripple's, not Combine's)

// The bodies of Ripple's public tracking functions (`withTracking`, `track`, `observe`), kept here,
// beside the scopes, observers and loop they use: the compiler then inlines and specializes those
// as it did when everything was one module, and Ripple's public functions are one call each.

/// `withTracking(_:phase:onChange:)`: runs `apply` in a scope and arms a one-shot observer on what
/// it read.
package func trackOnce<T, E: Error>(
    _ apply: () throws(E) -> T, phase: TrackingPhase, onChange: @escaping @Sendable (TrackingEvent) -> Void
) throws(E) -> T {
    // Not through `withAccesses`: callers run this generic function unspecialized, so it keeps
    // its generic part (running `apply`, returning its result) to the minimum.
    let scope = TrackingScope(reportingToOuterScope: true, phase: phase)
    let result = try scope.run(apply)
    armOneShot(on: scope, phase: phase, onChange: onChange)
    return result
}

/// `withTracking`'s observer, armed on what the closed `scope` read; then recycles the scope.
private func armOneShot(
    on scope: TrackingScope, phase: TrackingPhase, onChange: @escaping @Sendable (TrackingEvent) -> Void
) {
    defer { scope.recycle() }
    let accesses = scope.collector.accesses
    guard !accesses.isEmpty else { return }
    TrackingObserver(phases: TrackingPhases(phase), continuous: false, shared: false, onChange: onChange)
        .arm(on: accesses)
}

/// `track(_:phase:onChange:)`: runs `apply` once and arms a continuous observer on what it read.
/// The observer calls `onChange` through a ``TrackCallGate``, so that the token's cancel is final:
/// the gate closes first (no call starts after), then the observer leaves its properties, then the
/// cancel waits for the calls under way on other threads.
package func trackContinuously(
    _ apply: () -> Void, phase: TrackingPhase, onChange: @escaping @Sendable (TrackingEvent) -> Void
) -> AnyCancellable {
    let gate = TrackCallGate(onChange)
    let observer = TrackingObserver(phases: TrackingPhases(phase), continuous: true) { gate.call($0) }
    withAccesses(phase: phase, apply) { _, accesses in observer.arm(on: accesses) }
    return AnyCancellable {
        let waiter = gate.close()
        observer.cancel()
        waiter?.waitForTurn()
    }
}

/// `observe(on:_:)` once its body is a plain closure: starts the loop (the first run happens here)
/// and returns the token that cancels it.
package func startObserving(
    enqueue: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void, isolation: (any Actor)?,
    _ body: @escaping @Sendable () -> Void
) -> AnyCancellable {
    let loop = ObserveLoop<Void>(enqueue: enqueue, isolation: isolation, compute: body, deliver: { _ in })
    loop.start()
    return AnyCancellable { loop.cancel() }
}
