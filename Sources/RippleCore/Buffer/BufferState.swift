/// What ``BufferInner`` keeps under its lock, as a value: the upstream, the downstream and its
/// demand, the buffered elements and a due completion — and, from these, what each event makes due.
///
/// Its transitions are applied by the operator with its lock held and return what it must do after
/// unlocking (deliver, refill, cancel, make the custom error, complete); it calls nothing out (the
/// custom error is made by the caller, after unlocking). What leaves the state (elements to release,
/// a subscription to cancel) leaves by being returned.
struct BufferState<Downstream: Subscriber> {
    private(set) var upstream = UpstreamStatus.awaitingSubscription
    private(set) var downstream: Downstream?
    private(set) var demand = Subscribers.Demand.none
    private(set) var buffer = FIFO<Downstream.Input>()
    private(set) var completion: Subscribers.Completion<Downstream.Failure>?
    /// The downstream has this subscription: a completion may go out.
    private(set) var handedDown = false

    /// A state for `downstream`, waiting for the upstream's subscription.
    init(downstream: Downstream) {
        self.downstream = downstream
    }

    // MARK: Answers

    /// What ``arrive(_:size:whenFull:)`` decided about an upstream element.
    enum Arrival {
        /// After the end: drop it (no refill).
        case ignore
        /// Deliver it now, in this thread's turn (one demand was charged); then ``delivered(_:)``.
        case deliver
        /// It was buffered.
        case buffered
        /// The buffer is full and it was dropped (`.dropNewest`, or `.dropOldest` with a size of
        /// zero): refill one.
        case droppedNewest
        /// The buffer is full: the oldest element left to make room (release it after unlocking),
        /// refill one.
        case droppedOldest(Downstream.Input)
        /// The buffer is full under `.customError`: the upstream was terminated; after unlocking,
        /// make the error, cancel `upstream`, then apply ``failed(_:)``.
        case makeError(() -> Downstream.Failure, cancelling: (any Subscription)?)
    }

    /// What a completion (the upstream's, or the custom error) makes the operator do.
    enum Ending: Equatable {
        /// After the end, or (a custom error without demand) nothing is due now.
        case ignore
        /// Take the turn and drain: the completion goes out when due.
        case drain
    }

    /// What the thread draining (holding the turn) does next.
    enum Step {
        /// Deliver this buffered element (one demand charged), then apply ``delivered(_:)``.
        case deliver(Downstream, Downstream.Input)
        /// The stream is over: give the turn back, complete the downstream, then release `dropped`.
        case finish(Downstream, Subscribers.Completion<Downstream.Failure>, dropped: FIFO<Downstream.Input>)
        /// Nothing is due: give the turn back.
        case idle
    }

    // MARK: Transitions

    /// Whether the stream is still running (it has a downstream).
    var isActive: Bool { downstream != nil }

    /// The upstream's subscription arrives: the downstream to hand this subscription to (after the
    /// prefetch is asked for), or `nil` if it must be cancelled.
    mutating func acceptUpstream(_ subscription: any Subscription) -> Downstream? {
        guard let downstream, upstream.accept(subscription) else { return nil }
        return downstream
    }

    /// The downstream is about to receive this subscription: from now on a completion may go out.
    mutating func handDown() {
        handedDown = true
    }

    /// After the hand-off: whether a completion that arrived before it must be drained now.
    func completionWaitsAfterHandOff() -> Ending {
        downstream != nil && completion != nil ? .drain : .ignore
    }

    /// The upstream sends `input`, into a buffer of `size` that handles overflow by `whenFull`.
    mutating func arrive(
        _ input: Downstream.Input, size: Int, whenFull: Publishers.BufferingStrategy<Downstream.Failure>
    ) -> Arrival {
        guard downstream != nil, completion == nil else { return .ignore }
        if demand > 0, buffer.isEmpty {
            demand -= 1
            return .deliver
        }
        if buffer.count < size {
            buffer.append(input)
            return .buffered
        }
        switch whenFull {
        case .dropNewest:
            return .droppedNewest
        case .dropOldest:
            // With nothing held (a size of zero), the new element is the oldest.
            guard let dropped = buffer.popFirst() else { return .droppedNewest }
            buffer.append(input)
            return .droppedOldest(dropped)
        case .customError(let makeError):
            return .makeError(makeError, cancelling: upstream.terminate())
        }
    }

    /// The custom error was made (after an overflow under `.customError`). As in Combine, what is
    /// held stays: it goes out as demand allows, then the failure; nothing is delivered now unless
    /// the downstream has demand left.
    mutating func failed(_ error: Downstream.Failure) -> Ending {
        guard downstream != nil, completion == nil else { return .ignore }
        completion = .failure(error)
        return demand > 0 ? .drain : .ignore
    }

    /// The downstream returned `more` for a delivered element.
    mutating func delivered(_ more: Subscribers.Demand) {
        demand += more
    }

    /// The upstream completes.
    mutating func upstreamCompleted(_ completion: Subscribers.Completion<Downstream.Failure>) -> Ending {
        guard downstream != nil, self.completion == nil else { return .ignore }
        upstream = .terminal
        self.completion = completion
        return .drain
    }

    /// The downstream asks for `demand` more, in the requesting thread's turn.
    mutating func request(_ demand: Subscribers.Demand) {
        if downstream != nil { self.demand += demand }
    }

    /// The upstream's subscription, to ask it for a refill after unlocking.
    var upstreamSubscription: (any Subscription)? { upstream.subscription }

    /// What the downstream's cancel takes out of the state: the upstream to cancel, and the
    /// downstream and elements to release, after unlocking.
    mutating func cancel() -> (upstream: (any Subscription)?, released: Downstream?, dropped: FIFO<Downstream.Input>) {
        let taken = (upstream.terminate(), downstream, buffer)
        downstream = nil
        buffer = FIFO()
        return taken
    }

    /// The next step of a drain (the draining thread holds the turn). Combine's rule for the end:
    /// `.finished` goes out once the buffer is empty and the downstream has demand; a failure as
    /// soon as the downstream has no demand (or nothing is left).
    mutating func next() -> Step {
        guard let downstream else { return .idle }
        if demand > 0, let value = buffer.popFirst() {
            demand -= 1
            return .deliver(downstream, value)
        }
        if handedDown, let completion,
            buffer.isEmpty ? (demand > 0 || !completion.isFinished) : demand == 0 && !completion.isFinished
        {
            self.downstream = nil
            let dropped = buffer
            buffer = FIFO()
            return .finish(downstream, completion, dropped: dropped)
        }
        return .idle
    }
}

extension Subscribers.Completion {
    /// Whether this is `.finished`.
    fileprivate var isFinished: Bool {
        if case .finished = self { return true }
        return false
    }
}
