/// Where ``observe(on:isolation:_:)`` re-runs its closure.
public struct ObserveExecutor: Sendable {
    let enqueue: @Sendable (@escaping @Sendable () -> Void) -> Void

    /// Re-runs synchronously on the thread that made the change, right after the store.
    public static let immediate = ObserveExecutor { job in job() }

    /// Re-runs on the main actor.
    public static let mainActor = ObserveExecutor { job in
        Task { @MainActor in job() }
    }

    /// Re-runs isolated to `actor`.
    public static func actor(_ actor: some Actor) -> ObserveExecutor {
        ObserveExecutor { job in
            Task { await runIsolated(to: actor, job) }
        }
    }

    /// Re-runs wherever `enqueue` puts the job (a queue, a run loop, a test's manual executor).
    ///
    /// ```swift
    /// let executor = ObserveExecutor.custom { job in DispatchQueue.main.async(execute: job) }
    /// ```
    public static func custom(_ enqueue: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) -> ObserveExecutor {
        ObserveExecutor(enqueue: enqueue)
    }
}

private func runIsolated(to actor: isolated any Actor, _ job: @Sendable () -> Void) {
    job()
}

/// Runs `body` now, and again whenever a tracked property it read changes — re-tracking each time,
/// so the set of properties follows what the latest run read.
///
/// - Re-runs read the new values (they start after the store).
/// - Bursts coalesce: changes that land while a re-run is pending or running cause one more run,
///   not one per change. A change made on another thread while a run is under way is picked up by
///   the thread running it, which runs again right after (for as long as such changes keep coming).
/// - A body that writes what it reads (`observe { model.count += 1 }`) runs once per outside
///   change: its own writes do not trigger it.
/// - `body` runs where its caller is isolated: called from `@MainActor` code it may touch
///   main-actor state, and its re-runs happen on the main actor (at once when the change is made on
///   the main thread, otherwise right after); called from inside an actor, its re-runs are isolated
///   to that actor. From non-isolated code it re-runs wherever `executor` says (by default
///   synchronously, on the thread that made the change).
/// - `body` need not be `@Sendable`, as a `sink`'s closure need not be: a view model that is not
///   isolated to an actor can observe itself from its `init` (`observe { [weak self] in … }`).
///   Runs never overlap, but from non-isolated code they happen on the threads that make the
///   changes, as a `sink`'s values arrive on the threads that send them: what `body` touches must be
///   safe to touch there (an isolated caller's re-runs stay on its actor).
/// - Cancelling the returned token is final: once `cancel()` returns, no run starts, from any
///   thread. A run already under way on another thread is waited for; a cancel from inside the body
///   does not wait for itself.
///
/// ```swift
/// let token = observe { print("apples:", basket.apples) }
/// // Prints "apples: 0"
/// basket.peaches += 1   // not read: nothing
/// basket.apples += 1
/// // Prints "apples: 1"
/// ```
///
/// - Parameters:
///   - executor: Where re-runs are started. The body of an isolated caller still runs isolated to
///     its actor.
///   - isolation: The caller's isolation (leave the default): the actor the first run happens on
///     and re-runs return to.
///   - body: The closure to run and re-run.
/// - Returns: A token that cancels the observation (also when released).
public func observe(
    on executor: ObserveExecutor = .immediate,
    isolation: isolated (any Actor)? = #isolation,
    _ body: @escaping () -> Void
) -> AnyCancellable {
    if let isolation, isolation === MainActor.shared { noteMainActorThread() }
    let body = ObserveBody(run: body)
    // The loop is RippleCore's, started there so that it runs specialized.
    return startObserving(enqueue: executor.enqueue, isolation: isolation, { body.run() })
}

/// The closure ``observe(on:isolation:_:)`` runs, which need not be `Sendable`.
///
/// Safe to share because the loop never runs it on two threads at once (each run holds the loop's
/// delivery turn), an isolated caller's runs all happen on its actor, and a non-isolated caller's
/// happen on the threads that change what it read — the contract `sink` has for its closure.
private struct ObserveBody: @unchecked Sendable {
    let run: () -> Void
}

/// A publisher of a tracked expression: its value on subscription, then its new value after every
/// change of a tracked property it read (coalesced; with zero demand only the latest is kept).
///
/// After the subscription is cancelled no value reaches the subscriber; an evaluation already under
/// way on another thread may still finish (its value is dropped). Unlike ``observe(on:isolation:_:)``, the
/// cancel does not wait for it: it may come from inside the very delivery that evaluation waits for.
///
/// ```swift
/// let total = TrackedPublisher { basket.apples + basket.peaches }
/// let cancellable = total.sink { print("total:", $0) }
/// basket.apples = 2
/// // Prints "total: 0", then "total: 2"
/// ```
public struct TrackedPublisher<Output>: Publisher, Sendable {
    public typealias Failure = Never

    private let expression: @Sendable () -> Output

    /// Creates a publisher of `expression`, re-evaluated when what it read changes.
    public init(_ expression: @escaping @Sendable () -> Output) {
        self.expression = expression
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        let latest = LatestValue<Output>()
        let loop = ObserveLoop(enqueue: ObserveExecutor.immediate.enqueue, compute: expression, deliver: { latest.send($0) })
        loop.start()
        latest.subject!
            .handleEvents(receiveCancel: { loop.cancel(waitingForARun: false) })
            .receive(subscriber: subscriber)
    }
}

/// Holds the subject a tracked publisher delivers into (created by the first, synchronous run).
private final class LatestValue<Output>: @unchecked Sendable {
    /// The subject, once the first value made it (making it calls no user code). Kept as
    /// `AnyObject`: a box of a type generic over `Output` would look its metadata up on every
    /// value in unspecialized code; `LockedValue<AnyObject?>`'s is one cached load.
    private let stored = LockedValue<AnyObject?>(nil)

    var subject: CurrentValueSubject<Output, Never>? {
        stored.withLock { $0 }.map { unsafeDowncast($0, to: CurrentValueSubject<Output, Never>.self) }
    }

    func send(_ value: Output) {
        let existing = stored.withLock { stored -> AnyObject? in
            if let subject = stored { return subject }
            stored = CurrentValueSubject<Output, Never>(value)
            return nil
        }
        existing.map { unsafeDowncast($0, to: CurrentValueSubject<Output, Never>.self) }?.send(value)
    }
}

/// An asynchronous sequence of a tracked expression: its current value, then its value after every
/// change of what it read (coalesced: a slow consumer sees the latest, not every intermediate).
///
/// Ending the iteration (`break`, the task's cancellation, dropping the iterator) stops the
/// evaluations as cancelling ``observe(on:isolation:_:)`` does: none starts after it, and one under
/// way on another thread is waited for.
///
/// ```swift
/// for await apples in TrackedValues({ basket.apples }) {
///     print(apples)
/// }
/// ```
public struct TrackedValues<Element: Sendable>: AsyncSequence, Sendable {
    public typealias Failure = Never

    private let expression: @Sendable () -> Element

    /// Creates the sequence of `expression`, re-evaluated when what it read changes.
    public init(_ expression: @escaping @Sendable () -> Element) {
        self.expression = expression
    }

    public func makeAsyncIterator() -> AsyncStream<Element>.Iterator {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let loop = ObserveLoop(enqueue: ObserveExecutor.immediate.enqueue, compute: expression, deliver: { continuation.yield($0) })
        continuation.onTermination = { _ in loop.cancel() }
        loop.start()
        return stream.makeAsyncIterator()
    }
}
