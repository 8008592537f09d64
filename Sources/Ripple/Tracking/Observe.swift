/// Where ``observe(on:_:)`` re-runs its closure.
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

private func runIsolated(to actor: isolated some Actor, _ job: @Sendable () -> Void) {
    job()
}

/// Runs `body` now, and again whenever a tracked property it read changes — re-tracking each time,
/// so the set of properties follows what the latest run read.
///
/// - Re-runs read the new values (they start after the store).
/// - Bursts coalesce: changes that land while a re-run is pending or running cause one more run,
///   not one per change.
/// - Cancelling the returned token stops it at once: no re-run starts afterwards.
///
/// ```swift
/// let token = observe { print("apples:", basket.apples) }
/// // Prints "apples: 0"
/// basket.peaches += 1   // not read: nothing
/// basket.apples += 1
/// // Prints "apples: 1"
/// ```
public func observe(on executor: ObserveExecutor = .immediate, _ body: @escaping @Sendable () -> Void) -> AnyCancellable {
    let loop = ObserveLoop<Void>(executor: executor, compute: body, deliver: { _ in })
    loop.start()
    return AnyCancellable { loop.cancel() }
}

/// The engine behind ``observe(on:_:)``, the tracked publisher and the tracked async sequence:
/// `compute` runs tracked, `deliver` gets its result outside the tracking scope.
final class ObserveLoop<Value>: @unchecked Sendable {
    private enum Status {
        case idle
        case scheduled
        case running
        case cancelled
    }

    private let lock = Lock()
    private var status = Status.idle
    /// A change arrived while running: run once more when done.
    private var dirty = false
    private var observer: TrackingObserver?
    private let executor: ObserveExecutor
    private let compute: @Sendable () -> Value
    private let deliver: @Sendable (Value) -> Void

    init(executor: ObserveExecutor, compute: @escaping @Sendable () -> Value, deliver: @escaping @Sendable (Value) -> Void) {
        self.executor = executor
        self.compute = compute
        self.deliver = deliver
    }

    /// The first run happens synchronously, on the caller's thread.
    func start() {
        lock.lock()
        status = .running
        lock.unlock()
        run()
    }

    private func run() {
        var cancelled = false
        let value = withAccesses(compute) { value, accesses in
            let next = TrackingObserver(phases: .didSet, continuous: false) { [weak self] _ in
                self?.changed()
            }
            lock.lock()
            guard status != .cancelled else {
                lock.unlock()
                cancelled = true
                return value
            }
            let previous = observer
            observer = next
            lock.unlock()
            previous?.cancel()
            next.arm(on: accesses)  // fires at once if something changed after it was read
            return value
        }
        guard !cancelled else { return }
        deliver(value)
        lock.lock()
        if status == .running && dirty {
            // Something changed while this run was in progress: one more run, for all of it.
            dirty = false
            status = .scheduled
            lock.unlock()
            schedule()
        } else {
            if status == .running { status = .idle }
            lock.unlock()
        }
    }

    private func changed() {
        lock.lock()
        switch status {
        case .idle:
            status = .scheduled
            lock.unlock()
            schedule()
        case .running:
            dirty = true
            lock.unlock()
        case .scheduled, .cancelled:
            lock.unlock()
        }
    }

    private func schedule() {
        executor.enqueue { [self] in
            lock.lock()
            guard status == .scheduled else {
                lock.unlock()
                return
            }
            status = .running
            lock.unlock()
            run()
        }
    }

    func cancel() {
        lock.lock()
        status = .cancelled
        let observer = self.observer
        self.observer = nil
        lock.unlock()
        observer?.cancel()
    }
}

/// A publisher of a tracked expression: its value on subscription, then its new value after every
/// change of a tracked property it read (coalesced; with zero demand only the latest is kept).
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
        let loop = ObserveLoop(executor: .immediate, compute: expression, deliver: { latest.send($0) })
        loop.start()
        latest.subject!
            .handleEvents(receiveCancel: { loop.cancel() })
            .subscribe(subscriber)
    }
}

/// Holds the subject a tracked publisher delivers into (created by the first, synchronous run).
private final class LatestValue<Output>: @unchecked Sendable {
    private let lock = Lock()
    private var stored: CurrentValueSubject<Output, Never>?

    var subject: CurrentValueSubject<Output, Never>? {
        lock.withLock { stored }
    }

    func send(_ value: Output) {
        lock.lock()
        if let subject = stored {
            lock.unlock()
            subject.send(value)
        } else {
            stored = CurrentValueSubject(value)
            lock.unlock()
        }
    }
}

/// An asynchronous sequence of a tracked expression: its current value, then its value after every
/// change of what it read (coalesced: a slow consumer sees the latest, not every intermediate).
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
        let loop = ObserveLoop(executor: .immediate, compute: expression, deliver: { continuation.yield($0) })
        continuation.onTermination = { _ in loop.cancel() }
        loop.start()
        return stream.makeAsyncIterator()
    }
}
