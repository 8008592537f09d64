import PostgresNIO

extension PostgresEventClient {
    /// Runs `body` on a connection leased from the pool, within `timeout` (nil: the lease is retried
    /// until the calling task is cancelled, and `body` may take as long as it takes).
    ///
    /// Two bounds, because postgres-nio (1.33) can leave an operation waiting for good when the server
    /// kills a pooled connection (`pg_terminate_backend`): seen in the tests, a statement sent on the
    /// connection just as it was killed is neither answered nor failed; and the pool's state machine
    /// can leave a lease request queued behind a connection that then closes, when no other request
    /// comes to make it open a new one:
    /// - waiting for a lease: a request not served within ``leaseAttempt`` is cancelled and made
    ///   again (a new request makes the pool open a connection), until `timeout` has passed —
    ///   then ``PostgresEventError/timedOut(operation:after:sent:)`` with `sent: false`: nothing
    ///   reached the server;
    /// - the whole operation: when `body` has not returned by `timeout`, the same error with
    ///   `sent: true` — its statement may have taken effect. The body's task is cancelled and left
    ///   to end on its own.
    func withLeasedConnection<Result: Sendable>(
        _ operation: String, timeout: Duration?,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let clock = ContinuousClock()
        let deadline = timeout.map { clock.now + $0 }
        while true {
            let attempt = LeaseAttempt<Result>()
            let pool = self.pool
            let leaseBy = clock.now + leaseAttempt
            let outcome = await attempt.run(
                leaseBy: deadline.map { min($0, leaseBy) } ?? leaseBy, finishBy: deadline,
                work: { leased in
                    try await pool.withConnection { connection in
                        // Too late (the attempt has already been given up): send nothing.
                        guard leased() else { throw CancellationError() }
                        return try await body(connection)
                    }
                })
            switch outcome {
            case .finished(let result):
                return try result.get()
            case .notLeased:
                try Task.checkCancellation()
                if let deadline, let timeout, clock.now >= deadline {
                    throw PostgresEventError.timedOut(operation: operation, after: timeout, sent: false)
                }
                continue  // ask again: a new request makes the pool open a connection
            case .unfinished:
                throw PostgresEventError.timedOut(operation: operation, after: timeout ?? .zero, sent: true)
            }
        }
    }
}

/// How long one lease request may wait before it is cancelled and made again.
let leaseAttempt = Duration.seconds(1)

/// One try at leasing a connection and running work on it, raced against one timer; whoever comes
/// first decides, once.
///
/// The work runs in one task of its own (the caller waits on a continuation, so a statement that is
/// never answered cannot hold it); the timer is a callback scheduled on a NIO event loop, not a
/// second task: it fires at `leaseBy` (nothing leased yet: ``Outcome/notLeased``) and, when the
/// work holds a connection by then, schedules itself again for `finishBy`. Cheaper per operation
/// than a sleeping task, which matters for appends made one after another.
final class LeaseAttempt<Value: Sendable>: Sendable {
    enum Outcome: Sendable {
        case finished(Result<Value, any Error>)
        /// No connection was leased in time; the request was cancelled, nothing was sent.
        case notLeased
        /// Leased, but the work did not finish in time.
        case unfinished
    }

    private struct State {
        var continuation: CheckedContinuation<Outcome, Never>?
        var outcome: Outcome?
        var leased = false
        var work: Task<Void, Never>?
        var timer: Scheduled<Void>?
    }

    private let state = Locked(State())
    private let eventLoop: any EventLoop = PostgresClient.defaultEventLoopGroup.any()

    /// Starts `work` — which calls `leased` once it holds a connection, and sends nothing when that
    /// returns false (the attempt was given up) — and returns the first outcome. Cancelling the
    /// calling task cancels the work; its outcome then is whatever the work throws.
    func run(
        leaseBy: ContinuousClock.Instant, finishBy: ContinuousClock.Instant?,
        work: @escaping @Sendable (_ leased: @escaping @Sendable () -> Bool) async throws -> Value
    ) async -> Outcome {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                state.withLock { $0.continuation = continuation }
                let workTask = Task {
                    let result: Result<Value, any Error>
                    do {
                        result = .success(try await work { [weak self] in self?.markLeased() ?? false })
                    } catch {
                        result = .failure(error)
                    }
                    self.decide(.finished(result))
                }
                let timer = schedule(at: leaseBy) {
                    if self.decide(.notLeased) { return }
                    guard let finishBy else { return }
                    let again = self.schedule(at: finishBy) { self.decide(.unfinished) }
                    let late = self.state.withLock { state -> Bool in
                        guard state.outcome == nil else { return true }
                        state.timer = again
                        return false
                    }
                    if late { again.cancel() }
                }
                let late = state.withLock { state -> Bool in
                    state.work = workTask
                    if state.timer == nil { state.timer = timer }
                    return state.outcome != nil
                }
                if late {
                    workTask.cancel()
                    timer.cancel()
                }
            }
        } onCancel: {
            state.withLock { $0.work }?.cancel()
        }
    }

    /// Schedules `body` on the event loop at `instant` (at once when it has passed).
    private func schedule(at instant: ContinuousClock.Instant, _ body: @escaping @Sendable () -> Void) -> Scheduled<Void> {
        let delay = max(.zero, instant - ContinuousClock.now).components
        let nanoseconds = delay.seconds * 1_000_000_000 + delay.attoseconds / 1_000_000_000
        return eventLoop.scheduleTask(in: .nanoseconds(nanoseconds), body)
    }

    /// Whether the work may go on with its connection: false once the attempt is decided.
    private func markLeased() -> Bool {
        state.withLock { state in
            guard state.outcome == nil else { return false }
            state.leased = true
            return true
        }
    }

    /// Decides the attempt's outcome unless it is decided already (or, for `.notLeased`, a
    /// connection has been leased); returns whether this call decided it.
    @discardableResult
    private func decide(_ outcome: Outcome) -> Bool {
        typealias Losers = (CheckedContinuation<Outcome, Never>?, Task<Void, Never>?, Scheduled<Void>?)
        let (continuation, work, timer) = state.withLock { state -> Losers in
            guard state.outcome == nil else { return (nil, nil, nil) }
            if case .notLeased = outcome, state.leased { return (nil, nil, nil) }
            state.outcome = outcome
            defer { state.continuation = nil; state.timer = nil }
            return (state.continuation, state.work, state.timer)
        }
        guard let continuation else { return false }
        // The loser: the timer is no longer needed; work that lost the race is cancelled (a lease
        // request leaves the pool's queue; a statement already sent is not recalled).
        timer?.cancel()
        if case .finished = outcome {} else { work?.cancel() }
        continuation.resume(returning: outcome)
        return true
    }
}
