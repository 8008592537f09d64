/// One upstream of a ``MergeCore``: its subscription and what it has been asked for.
@usableFromInline
struct MergeChildState {
    var subscription: (any Subscription)?
    /// Has an outstanding request (`.max(1)`, or `.unlimited`).
    var requested = false
    /// Was asked for `.unlimited`: never needs asking again.
    var unlimited = false
    var finished = false
    /// Counts the children that used this slot: an event from an earlier one is ignored.
    var generation = 0

    init(generation: Int = 0) { self.generation = generation }
}

/// The bookkeeping of a ``MergeCore`` as a value: its children (slots, generations, what each was
/// asked for), the downstream's demand, how many values wait in the core's queue and, from that,
/// what each event makes due.
///
/// Its transitions are applied by the core with its lock held and return what the core must do
/// after (deliver a value now or queue it, request or cancel which subscriptions with what demand,
/// finish). It holds no values of the downstream's type and calls nothing out, so it is not generic
/// and not inlinable: the core's generic, inlinable code — specialized for each downstream — is a
/// thin shell that holds the downstream and the queued values and calls the downstream, while the
/// decisions are compiled once, here, and unit-tested as a value. Subscriptions leave the state only
/// by being returned, for the core to call (or release) after unlocking.
@usableFromInline
struct MergeState {
    /// `true` once the downstream is gone (cancelled or completed).
    @usableFromInline var terminated = false
    var demand = Subscribers.Demand.none
    var children: [MergeChildState]
    /// Slots of finished children, for reuse.
    var free: [Int] = []
    /// Children not yet finished.
    var active: Int
    /// flatMap: the drain is asking a child for its next element (while holding the turn); an
    /// element that child sends from inside that request waits in the queue, as in Combine.
    var askingChild = false
    /// flatMap's upstream of publishers; `.terminal` when there is none or it has finished.
    var outer = UpstreamStatus.terminal
    /// How many values wait in the core's queue (which holds them).
    var queued = 0
    /// flatMap: the child (index, generation) each queued value came from, in step with the queue.
    var queuedFrom = FIFO<(Int, Int)>()
    /// A failure arrived (the core holds it; it ends the stream at the next drain).
    var failed = false
    /// flatMap: a new child is asked for `.max(1)` as soon as it is subscribed, and again after
    /// each of its elements is delivered, even while the downstream has no demand (Combine's rule;
    /// its value then waits here, and a child that finishes frees its place for the next publisher).
    let asksNewChildren: Bool
    /// flatMap with a bounded `maxPublishers`: ask the outer upstream for one more per finished child.
    let refillsOuter: Bool

    /// A merge of `count` children, none subscribed yet.
    @usableFromInline
    init(merging count: Int) {
        children = Array(repeating: MergeChildState(), count: count)
        active = count
        asksNewChildren = false
        refillsOuter = false
    }

    /// A flatMap, waiting for its outer upstream's subscription; `outerIsBounded` when it asks that
    /// upstream for fewer than `.unlimited` publishers.
    @usableFromInline
    init(flatMapWithBoundedOuter outerIsBounded: Bool) {
        children = []
        active = 0
        outer = .awaitingSubscription
        asksNewChildren = true
        refillsOuter = outerIsBounded
    }

    // MARK: Answers

    /// What ``attach(_:index:generation:)`` decided about a child's subscription.
    @usableFromInline
    enum Attach: Equatable {
        /// Stale (a finished or replaced child, a second subscription) or terminated: cancel it.
        case cancel
        /// Kept; nothing to ask yet.
        case keep
        /// Kept; request this demand of it.
        case request(Subscribers.Demand)
    }

    /// What ``arrive(index:generation:turnOwner:)`` decided about a child's value.
    @usableFromInline
    enum Arrival: Equatable {
        /// From a stale child, or after termination: drop it.
        case drop
        /// Append it to the queue (counted here already); it waits for demand.
        case queue
        /// Deliver it now, in this thread's turn; one demand is charged for it. Pass
        /// `wasUnlimited` back to ``delivered(_:index:generation:wasUnlimited:nested:)``.
        case deliver(wasUnlimited: Bool)
    }

    /// What a completion (of a child, or of flatMap's outer upstream) makes the core do.
    @usableFromInline
    enum Ending {
        /// Stale or after termination: nothing.
        case ignore
        /// The first failure: keep the error, deliver it at once if this thread is asking a child
        /// from inside the drain (``failsNowWhileAsking(turnOwner:)``), else take the turn and drain.
        case fail
        /// Take the turn and drain (a later failure is dropped); then, after unlocking, ask `refill`
        /// (flatMap's outer upstream) for `.max(1)`.
        case drain(refill: (any Subscription)?)
    }

    /// What the thread draining (holding the turn, after any failure was delivered) does next.
    @usableFromInline
    enum Step {
        /// Deliver the oldest queued value (taken off the count, one demand charged), then apply
        /// ``deliveredQueued(_:from:)`` with `from`.
        case deliver(from: (index: Int, generation: Int)?)
        /// Everything has finished and nothing waits: complete with `.finished`.
        case finish
        /// Nothing is due: give the turn back, then request these of idle children (already marked
        /// as asked).
        case idle(asks: [(any Subscription, Subscribers.Demand)])
    }

    // MARK: Transitions

    /// Whether `index` and `generation` name a child that has not finished.
    func isCurrent(_ index: Int, _ generation: Int) -> Bool {
        index < children.count && children[index].generation == generation && !children[index].finished
    }

    /// The downstream asks for `demand` more (counted from the requesting thread's turn on).
    @usableFromInline
    mutating func request(_ demand: Subscribers.Demand) {
        if !terminated { self.demand += demand }
    }

    /// flatMap's outer upstream subscribes; `false` if that subscription must be cancelled.
    @usableFromInline
    mutating func acceptOuter(_ subscription: any Subscription) -> Bool {
        guard !terminated else { return false }
        return outer.accept(subscription)
    }

    /// flatMap's outer upstream completes (`failing` with a failure).
    @usableFromInline
    mutating func outerCompleted(failing: Bool) -> Ending {
        guard !terminated, !outer.isTerminal else { return .ignore }
        outer = .terminal
        return ended(failing: failing, refill: nil)
    }

    /// flatMap's outer upstream sent a publisher: the slot (and generation) of its new child, or
    /// `nil` if the stream is over or failing (the publisher is not subscribed). Finished children's
    /// slots are reused, under the next generation.
    @usableFromInline
    mutating func addChild() -> (index: Int, generation: Int)? {
        guard !terminated, !failed else { return nil }
        let index: Int
        if let reused = free.popLast() {
            index = reused
            children[index] = MergeChildState(generation: children[index].generation + 1)
        } else {
            index = children.count
            children.append(MergeChildState())
        }
        active += 1
        return (index, children[index].generation)
    }

    /// A child's subscription arrives. With downstream demand (flatMap: always) it is asked at once:
    /// for `.unlimited` if that is the demand, else for `.max(1)`.
    @usableFromInline
    mutating func attach(_ subscription: any Subscription, index: Int, generation: Int) -> Attach {
        guard !terminated, isCurrent(index, generation), children[index].subscription == nil else { return .cancel }
        children[index].subscription = subscription
        guard demand > 0 || asksNewChildren else { return .keep }
        let ask: Subscribers.Demand = demand == .unlimited ? .unlimited : .max(1)
        children[index].requested = true
        children[index].unlimited = ask == .unlimited
        return .request(ask)
    }

    /// A child sends a value; `turnOwner` is the delivery turn's owner. It is delivered now if there
    /// is demand and no older value waits — unless this thread is asking that child from inside the
    /// drain (flatMap), where Combine queues it too.
    @usableFromInline
    mutating func arrive(index: Int, generation: Int, turnOwner: UInt) -> Arrival {
        guard !terminated, isCurrent(index, generation) else { return .drop }
        let unlimited = children[index].unlimited
        guard demand > 0, queued == 0, !(askingChild && turnOwner == currentThreadID()) else {
            queued += 1
            if asksNewChildren { queuedFrom.append((index, generation)) }
            if !unlimited { children[index].requested = false }
            return .queue
        }
        demand -= 1
        return .deliver(wasUnlimited: unlimited)
    }

    /// A value delivered on arrival returned `more`; `nested` when the delivery was nested in
    /// another on this thread (that outer call drains). Returns what the child's `receive(_:)`
    /// returns: its `.max(1)` is spent, so it gets `.max(1)` again if there is more demand and
    /// nothing queued (flatMap: always, as in Combine; when demand became unlimited the drain asks
    /// it for `.unlimited` instead).
    @usableFromInline
    mutating func delivered(
        _ more: Subscribers.Demand, index: Int, generation: Int, wasUnlimited: Bool, nested: Bool
    ) -> Subscribers.Demand {
        demand += more
        guard !wasUnlimited, isCurrent(index, generation) else { return .none }
        if nested {
            let again = asksNewChildren && demand != .unlimited && children[index].subscription != nil
            children[index].requested = again
            return again ? .max(1) : .none
        }
        children[index].requested = false
        guard demand > 0 || asksNewChildren, demand != .unlimited, queued == 0 || asksNewChildren,
            children[index].subscription != nil
        else { return .none }
        children[index].requested = true
        return .max(1)
    }

    /// A child completes (`failing` with a failure). Its slot is freed for the next publisher.
    @usableFromInline
    mutating func childCompleted(index: Int, generation: Int, failing: Bool) -> Ending {
        guard !terminated, isCurrent(index, generation) else { return .ignore }
        children[index].finished = true
        children[index].subscription = nil
        active -= 1
        free.append(index)
        return ended(failing: failing, refill: refillsOuter ? outer.subscription : nil)
    }

    /// The first failure fails the stream; a later one only drains. A finished child refills.
    mutating func ended(failing: Bool, refill: (any Subscription)?) -> Ending {
        guard failing else { return .drain(refill: refill) }
        guard !failed else { return .drain(refill: nil) }
        failed = true
        return .fail
    }

    /// Whether a failure that just arrived is delivered at once: it arrived on the thread that is
    /// asking a child for its next element from inside the drain (flatMap: the child finished, its
    /// refill reached the outer upstream, and that failed), as Combine does — not after the request
    /// returns. `turnOwner` is the delivery turn's owner.
    @usableFromInline
    func failsNowWhileAsking(turnOwner: UInt) -> Bool {
        !terminated && askingChild && turnOwner == currentThreadID()
    }

    /// With the turn held (and no failure due): what the drain does next.
    @usableFromInline
    mutating func next() -> Step {
        if demand > 0, queued > 0 {
            queued -= 1
            demand -= 1
            return .deliver(from: asksNewChildren ? queuedFrom.popFirst() : nil)
        }
        if queued == 0, active == 0, outer.isTerminal {
            return .finish
        }
        return .idle(asks: askIdleChildren())
    }

    /// A queued value from `from` (``Step/deliver(from:)``) was delivered and returned `more`.
    /// flatMap (Combine's rule): that child is asked for its next element at once, demand or not;
    /// returns its subscription, to request `.max(1)` of with the lock released and then apply
    /// ``askedChild()``.
    @usableFromInline
    mutating func deliveredQueued(_ more: Subscribers.Demand, from: (index: Int, generation: Int)?) -> (any Subscription)? {
        demand += more
        guard let (index, generation) = from, demand != .unlimited, isCurrent(index, generation),
            !children[index].requested, let subscription = children[index].subscription
        else { return nil }
        children[index].requested = true
        askingChild = true
        return subscription
    }

    /// The request ``deliveredQueued(_:from:)`` asked for has returned.
    @usableFromInline
    mutating func askedChild() {
        askingChild = false
    }

    /// Marks every idle child as asked, now that the queue is as empty as demand allows, and returns
    /// what to request of it: `.unlimited` when that is the demand (of those not asked for it yet),
    /// else `.max(1)` (of those with nothing outstanding).
    @inline(__always)
    mutating func askIdleChildren() -> [(any Subscription, Subscribers.Demand)] {
        guard demand > 0 else { return [] }
        let unlimited = demand == .unlimited
        // Most drains find nobody to ask: look before writing (a write to `children` first checks
        // that its buffer is unique).
        var index = children.startIndex
        while index < children.endIndex, !isIdle(index, unlimited: unlimited) { index += 1 }
        var asks: [(any Subscription, Subscribers.Demand)] = []
        while index < children.endIndex {
            if isIdle(index, unlimited: unlimited), let subscription = children[index].subscription {
                children[index].requested = true
                children[index].unlimited = unlimited
                asks.append((subscription, unlimited ? .unlimited : .max(1)))
            }
            index += 1
        }
        return asks
    }

    /// Whether child `index` is subscribed and not asked for what `unlimited` demand calls for.
    /// (Fields are read in place: copying a child's state would retain its subscription.)
    @inline(__always)
    func isIdle(_ index: Int, unlimited: Bool) -> Bool {
        !children[index].finished && (unlimited ? !children[index].unlimited : !children[index].requested)
            && children[index].subscription != nil
    }

    /// Ends the stream: nothing starts after this. Returns what the core cancels after unlocking
    /// (the outer upstream first, then the children) and the children's state, which it releases
    /// after unlocking (it holds their subscriptions).
    @usableFromInline
    mutating func terminate() -> (cancel: [any Subscription], release: [MergeChildState]) {
        var subscriptions: [any Subscription] = []
        if let outer = outer.terminate() { subscriptions.append(outer) }
        for child in children.indices {
            if let subscription = children[child].subscription { subscriptions.append(subscription) }
        }
        terminated = true
        let released = children
        children = []
        queued = 0
        queuedFrom = FIFO()
        return (subscriptions, released)
    }
}
