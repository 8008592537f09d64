/// The subscriber behind both async sequences: one request per waiting `next()` call, the waiting
/// calls resumed in the order they were made.
///
/// Everything leaving the lock — continuations to resume, a value, the subscription to cancel — is
/// taken out of the state under the lock and acted on after unlocking.
final class AsyncBridge<Input, Failure: Error>: Subscriber, Cancellable, @unchecked Sendable {
    typealias Element = Result<Input?, Failure>
    typealias Waiter = UnsafeContinuation<Element, Never>

    private struct State {
        var status = UpstreamStatus.awaitingSubscription
        /// The `next()` calls waiting for an element, oldest first.
        var waiters = FIFO<Waiter>()
        /// Requests made before the subscription arrived.
        var pendingDemand = Subscribers.Demand.none
        /// A failure that arrived while no call was waiting: thrown by the next call, once.
        var failure: Failure?

        /// Terminates and hands back what the caller resumes and cancels after unlocking.
        mutating func terminate() -> (subscription: (any Subscription)?, waiters: [Waiter]) {
            let subscription = status.terminate()
            let waiting = Array(waiters.storage[waiters.head...])
            waiters.removeAll()
            return (subscription, waiting)
        }
    }

    private let lock = Lock()
    private var state = State()

    func receive(subscription: any Subscription) {
        lock.lock()
        guard state.status.accept(subscription) else {
            lock.unlock()
            subscription.cancel()
            return
        }
        let demand = state.pendingDemand
        state.pendingDemand = .none
        lock.unlock()
        if demand > 0 {
            subscription.request(demand)
        }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        switch state.status {
        case .subscribed:
            break
        case .awaitingSubscription:
            // A value before the subscription (a broken upstream): as in Combine, every waiting
            // call is resumed with `nil`; the demand they asked for is still requested once the
            // subscription arrives.
            let waiting = Array(state.waiters.storage[state.waiters.head...])
            state.waiters.removeAll()
            lock.unlock()
            for waiter in waiting {
                waiter.resume(returning: .success(nil))
            }
            return .none
        case .terminal:
            lock.unlock()
            return .none
        }
        let waiter = state.waiters.popFirst()
        lock.unlock()
        require(
            waiter != nil,
            "values: received a value no next() asked for (the upstream publisher sent more than it was asked for)")
        nonisolated(unsafe) let element = Element.success(input)  // unsafe: handed to the one waiter, not kept
        waiter?.resume(returning: element)
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard !state.status.isTerminal else {
            lock.unlock()
            return
        }
        let (_, waiters) = state.terminate()
        if case .failure(let error) = completion, waiters.isEmpty {
            state.failure = error
        }
        lock.unlock()
        var first: Element = .success(nil)
        if case .failure(let error) = completion {
            first = .failure(error)
        }
        for (index, waiter) in waiters.enumerated() {
            nonisolated(unsafe) let element = index == 0 ? first : .success(nil)  // unsafe: to one waiter each, not kept
            waiter.resume(returning: element)
        }
    }

    func cancel() {
        lock.lock()
        guard !state.status.isTerminal else {
            lock.unlock()
            return
        }
        let (subscription, waiters) = state.terminate()
        lock.unlock()
        subscription?.cancel()
        for waiter in waiters {
            waiter.resume(returning: .success(nil))
        }
    }

    /// Requests one element and waits for it (or for the end of the stream).
    func next() async -> Element {
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: Waiter) in
                lock.lock()
                switch state.status {
                case .terminal:
                    // A failure is reported once; after that the sequence just ends.
                    let failure = state.failure
                    state.failure = nil
                    lock.unlock()
                    nonisolated(unsafe) let element: Element = failure.map { .failure($0) } ?? .success(nil)  // unsafe: to the one waiter
                    continuation.resume(returning: element)
                case .awaitingSubscription:
                    state.waiters.append(continuation)
                    state.pendingDemand += 1
                    lock.unlock()
                case .subscribed(let subscription):
                    state.waiters.append(continuation)
                    lock.unlock()
                    subscription.request(.max(1))
                }
            }
        } onCancel: {
            self.cancel()
        }
    }
}
