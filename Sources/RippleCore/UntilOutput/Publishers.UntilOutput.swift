extension Publishers {
    /// A publisher that ignores elements from the upstream publisher until it receives an element
    /// from a second publisher.
    ///
    /// As in Combine, the subscriber gets this publisher's subscription before the second
    /// publisher and then the upstream are subscribed; its requests go upstream unchanged (those
    /// made before the upstream's subscription arrives, when it arrives), and an element dropped
    /// before the second publisher emits uses up its demand. The second publisher is asked for one
    /// element and cancelled once it sends it; if it completes without an element, finished or
    /// failed, this publisher cancels the upstream and completes the same way.
    ///
    /// Differs from Combine: a value a broken upstream sends after the stream ended (the second
    /// publisher completed without an element) is ignored, as every event after a completion is;
    /// Combine traps.
    public struct DropUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher
    where Upstream.Failure == Other.Failure {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// A publisher to monitor for its first emitted element.
        public let other: Other

        /// Creates a `DropUntilOutput` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // Combine's order: the downstream gets its subscription first, then the trigger and
            // the upstream are subscribed.
            let inner = DropUntilOutputInner(downstream: subscriber)
            subscriber.receive(subscription: inner)
            other.receive(subscriber: UntilOutputTrigger<DropUntilOutputInner<S>, Other.Output>(inner: inner))
            upstream.receive(subscriber: inner)
        }
    }

    /// A publisher that republishes elements until another publisher emits an element; then it
    /// cancels the upstream and finishes.
    ///
    /// As in Combine, the second publisher is subscribed first, then the upstream; the subscriber
    /// gets this publisher's subscription when the upstream's arrives, and its requests go upstream
    /// unchanged. The second publisher is asked for one element. Its completion (finished or
    /// failed) only means it will never trigger: elements keep flowing, also when the second
    /// publisher (breaking the protocol) sends an element after completing.
    ///
    /// Differs from Combine: its subscription describes itself as "PrefixUntilOutput"; Combine's
    /// shows a longer name that contains it.
    public struct PrefixUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream
        /// The publisher that, once it emits, ends this publisher.
        public let other: Other

        /// Creates a `PrefixUntilOutput` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // Combine's order: the trigger, then the upstream; the downstream gets its
            // subscription when the upstream's arrives.
            let inner = PrefixUntilOutputInner<S, Other.Failure>(downstream: subscriber)
            other.receive(subscriber: UntilOutputTrigger<PrefixUntilOutputInner<S, Other.Failure>, Other.Output>(inner: inner))
            upstream.receive(subscriber: inner)
        }
    }
}

extension Publishers.DropUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}
extension Publishers.PrefixUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}

extension Publisher {
    /// Ignores elements from the upstream publisher until it receives an element from a second
    /// publisher.
    public func drop<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.DropUntilOutput<Self, P>
    where Failure == P.Failure {
        Publishers.DropUntilOutput(upstream: self, other: publisher)
    }

    /// Republishes elements until another publisher emits an element.
    public func prefix<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.PrefixUntilOutput<Self, P> {
        Publishers.PrefixUntilOutput(upstream: self, other: publisher)
    }
}

/// What `drop(untilOutputFrom:)` and `prefix(untilOutputFrom:)` share: the trigger's subscription,
/// delivery in turns (``TurnStorage``), ending the stream and cancelling.
///
/// Delivery follows the engine's contract (``DeliveryTurn``): an element goes out on the thread that
/// sent it; a completion the trigger causes on another thread while an element is being delivered
/// waits its turn, and one caused from inside the delivery (same thread) is delivered nested.
private class UntilOutputInnerBase<Downstream: Subscriber>: TurnStorage<UntilOutputState<Downstream>>,
    CustomStringConvertible
{
    /// Names the operator in descriptions and deadlock reports.
    let description: String

    init(downstream: Downstream, name: String) {
        description = name
        super.init(state: UntilOutputState(downstream: downstream))
    }

    /// The trigger's subscription: kept, and asked for one element.
    final func triggerReceive(subscription: any Subscription) {
        let accepted = lock.withLock { state.acceptTrigger(subscription) }
        guard accepted else {
            subscription.cancel()
            return
        }
        subscription.request(.max(1))
    }

    /// The trigger sent its element: marks the stream triggered and cancels the trigger (after
    /// unlocking). Returns whether this call did (not if it had fired already or the downstream is
    /// gone), and whether the downstream had this subscription by then.
    final func markTriggered() -> (fired: Bool, handedDown: Bool) {
        switch lock.withLock({ state.fire() }) {
        case .ignore:
            return (false, false)
        case .fired(let trigger, let handedDown):
            trigger?.cancel()
            return (true, handedDown)
        }
    }

    /// Delivers `input` on this thread, in its turn (waiting for it if another thread holds it;
    /// nested if this thread does), unless the downstream is gone by then. Called with `lock` held;
    /// unlocks.
    final func deliverInTurnLocked(_ input: Downstream.Input) -> Subscribers.Demand {
        lock.assertHeld()
        guard case .called(let more, let nested) = callInTurnLocked(name: description, to: { state.downstream }, { $0.receive(input) })
        else {
            // Completed or cancelled meanwhile.
            return .none
        }
        leaveTurnLocked(nested: nested)
        return more
    }

    /// Ends the stream: detaches the downstream, cancels the trigger (and the upstream if
    /// `cancellingUpstream`), then delivers `completion` in this thread's turn (nested if it holds
    /// it, after the delivery in progress if another thread does).
    final func end(_ completion: Subscribers.Completion<Downstream.Failure>, cancellingUpstream: Bool) {
        guard let teardown = lock.withLock({ state.end() }) else { return }
        if cancellingUpstream { teardown.upstream?.cancel() }
        teardown.trigger?.cancel()
        lock.lock()
        awaitTurnLocked(name: description)
        teardown.downstream.receive(completion: completion)
    }

    /// Cancels both sides; the downstream is released after unlocking.
    final func cancel() {
        let (upstream, trigger, released) = lock.withLock { state.cancel() }
        upstream?.cancel()
        trigger?.cancel()
        _ = released
    }
}

/// The subscription of `drop(untilOutputFrom:)`, and its upstream's subscriber. The trigger's
/// events arrive through ``UntilOutputTrigger``.
///
/// As in Combine, the downstream gets this subscription before anything is subscribed; its
/// requests are kept until the upstream's subscription arrives, then go upstream unchanged, and an
/// element dropped before the trigger fires uses up its demand (returns `.none`). A trigger that
/// completes before sending an element (finished or failed) completes the downstream with its
/// completion and cancels the upstream. Delivery: see ``UntilOutputInnerBase``.
private final class DropUntilOutputInner<Downstream: Subscriber>: UntilOutputInnerBase<Downstream>, Subscriber,
    Subscription
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    init(downstream: Downstream) {
        super.init(downstream: downstream, name: "DropUntilOutput")
    }

    // MARK: Trigger

    func triggerFired() {
        _ = markTriggered()
    }

    func triggerCompleted(_ completion: Subscribers.Completion<Failure>) {
        let fired = lock.withLock { state.triggerCompleted() }
        // A trigger that ends without an element ends the stream, as in Combine.
        if !fired {
            end(completion, cancellingUpstream: true)
        }
    }

    // MARK: Upstream

    func receive(subscription: any Subscription) {
        switch lock.withLock({ state.acceptDropUpstream(subscription) }) {
        case .cancel:
            subscription.cancel()
        case .keep(let demand):
            if demand > 0 { subscription.request(demand) }
        }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        switch state.dropArrival() {
        case .broken:
            // A broken upstream: Combine traps here too.
            lock.unlock()
            fatalError("DropUntilOutput: received a value before a subscription")
        case .drop:
            // Dropped: its demand is used up, as in Combine.
            lock.unlock()
            return .none
        case .deliver:
            return deliverInTurnLocked(input)
        }
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        end(completion, cancellingUpstream: true)
    }

    // MARK: Downstream

    /// Passes the demand upstream, `.none` included (Combine does not trap on it).
    func request(_ demand: Subscribers.Demand) {
        lock.withLock { state.dropRequest(demand) }?.request(demand)
    }
}

/// The subscription of `prefix(untilOutputFrom:)`, and its upstream's subscriber. The trigger's
/// events arrive through ``UntilOutputTrigger``.
///
/// As in Combine, the trigger is subscribed first, then the upstream, and the downstream gets this
/// subscription when the upstream's arrives; requests go upstream unchanged. A trigger that fires
/// before the upstream's subscription arrived ends the stream when it arrives: it is cancelled, the
/// downstream gets this subscription, then `.finished`. Delivery: see ``UntilOutputInnerBase``.
private final class PrefixUntilOutputInner<Downstream: Subscriber, TriggerFailure: Error>:
    UntilOutputInnerBase<Downstream>, Subscriber, Subscription
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    init(downstream: Downstream) {
        super.init(downstream: downstream, name: "PrefixUntilOutput")
    }

    // MARK: Trigger

    func triggerFired() {
        let (fired, handedDown) = markTriggered()
        // Before the downstream has a subscription the stream ends when the upstream's arrives.
        if fired, handedDown {
            end(.finished, cancellingUpstream: true)
        }
    }

    func triggerCompleted(_ completion: Subscribers.Completion<TriggerFailure>) {
        // The trigger can no longer fire (an element it sends after its completion is ignored);
        // nothing else changes.
        _ = lock.withLock { state.triggerCompleted() }
    }

    // MARK: Upstream

    func receive(subscription: any Subscription) {
        switch lock.withLock({ state.acceptPrefixUpstream(subscription) }) {
        case .cancel:
            subscription.cancel()
        case .handDown(let downstream):
            downstream.receive(subscription: self)
        case .handDownAndFinish(let downstream):
            subscription.cancel()
            downstream.receive(subscription: self)
            downstream.receive(completion: .finished)
        }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard state.isActive else {
            lock.unlock()
            return .none
        }
        return deliverInTurnLocked(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        end(completion, cancellingUpstream: false)
    }

    // MARK: Downstream

    /// Passes the demand upstream, `.none` included (Combine does not trap on it).
    func request(_ demand: Subscribers.Demand) {
        lock.withLock { state.upstreamSubscription }?.request(demand)
    }
}

/// What an until-output inner does with its trigger's events.
private protocol UntilOutputTriggered: AnyObject, CustomStringConvertible {
    associatedtype TriggerFailure: Error
    func triggerReceive(subscription: any Subscription)
    func triggerFired()
    func triggerCompleted(_ completion: Subscribers.Completion<TriggerFailure>)
}

extension DropUntilOutputInner: UntilOutputTriggered {
    typealias TriggerFailure = Downstream.Failure
}

extension PrefixUntilOutputInner: UntilOutputTriggered {}

/// Subscribes an until-output inner to its trigger publisher.
private final class UntilOutputTrigger<Inner: UntilOutputTriggered, Input>: Subscriber, CustomStringConvertible {
    typealias Failure = Inner.TriggerFailure
    let inner: Inner

    init(inner: Inner) { self.inner = inner }

    var description: String { inner.description }
    func receive(subscription: any Subscription) { inner.triggerReceive(subscription: subscription) }
    func receive(_ input: Input) -> Subscribers.Demand {
        inner.triggerFired()
        return .none
    }
    func receive(completion: Subscribers.Completion<Failure>) { inner.triggerCompleted(completion) }
}

