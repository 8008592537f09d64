/// What a combiner's machine says about a value that just arrived from one of its upstreams.
@usableFromInline
enum CombinerArrival: Equatable {
    /// Keep the value; nothing goes out now.
    case hold
    /// Keep the value and give that upstream its demand back (`.max(1)`, as the return of its
    /// `receive(_:)`). No machine uses it now: combineLatest gives nothing back, as in Combine.
    case giveBack
    /// Build a tuple now and deliver it; one demand is already charged for it (zip: one value of
    /// every upstream is used up).
    case emit
}

/// What a combiner's machine says the thread holding the delivery turn should do next.
@usableFromInline
enum CombinerStep: Equatable {
    /// Build a tuple and deliver it; one demand is already charged for it.
    case emit
    /// Nothing more can go out: complete with `.finished`.
    case finish
    /// Nothing is due: give the turn back.
    case idle
}

/// Where a combiner sends the demand the downstream added while a tuple completed by one upstream
/// (the sender) was being delivered.
@usableFromInline
struct DemandRoute: Equatable {
    /// Returned to the sender from its `receive(_:)`.
    @usableFromInline var toSender: Subscribers.Demand
    /// Requested of every other upstream now.
    @usableFromInline var toOthers: Subscribers.Demand

    @inlinable
    init(toSender: Subscribers.Demand, toOthers: Subscribers.Demand) {
        self.toSender = toSender
        self.toOthers = toOthers
    }
}

/// The bookkeeping of a combining operator (combineLatest or zip) as a value: which upstreams have
/// values and have finished, the downstream's demand, and, from that, what each event makes due.
/// Its transitions return what ``CombinerCore`` must do (build and deliver a tuple, give demand
/// back, finish); it holds no values, subscriptions or locks (the core does), so it is unit-tested
/// as a value.
///
/// Not generic, so its transitions are compiled once, here, and not inlined into clients: the core,
/// specialized for the concrete machine where it is subscribed, calls them directly. Only the static
/// properties, constants the specialized core folds away, stay inlinable.
@usableFromInline
protocol CombinerMachine {
    /// A machine for `count` upstreams, none of which has a value, with no demand.
    init(count: Int)
    /// What the downstream asked for and has not been sent yet.
    var demand: Subscribers.Demand { get set }
    /// The upstreams queue every value (zip) rather than keep only the latest (combineLatest).
    static var keepsAll: Bool { get }
    /// zip (Combine's rule): the upstream whose value completed a tuple gets the demand the
    /// downstream adds during that tuple's delivery as the return of its `receive(_:)`, not as a
    /// request (see ``route(returned:requestedDuringDelivery:)``); otherwise every upstream is asked.
    static var returnsDemandToSender: Bool { get }
    /// zip: where the demand the downstream added while a tuple was being delivered goes, given what
    /// it returned for the tuple and what it requested from inside the delivery (the latter already
    /// went to every other upstream when it was requested).
    static func route(returned: Subscribers.Demand, requestedDuringDelivery: Subscribers.Demand) -> DemandRoute
    /// zip (Combine's order): the downstream is completed before the upstreams are cancelled.
    static var completesBeforeCancelling: Bool { get }
    /// Upstream `index` sent a value (already stored in its child).
    mutating func receive(from index: Int) -> CombinerArrival
    /// What is due now, for the thread holding the delivery turn.
    mutating func next() -> CombinerStep
    /// Upstream `index` completed; `false` if it had already.
    mutating func finish(_ index: Int) -> Bool
    /// Whether upstream `index` has completed.
    func isFinished(_ index: Int) -> Bool
    /// Per upstream: whether it has completed.
    var finishedUpstreams: [Bool] { get }
}

/// combineLatest's machine: a tuple of the latest values once every upstream has one.
///
/// While there is demand, each value yields its own tuple (built the moment it arrives); a value
/// that arrives beyond the demand only replaces that upstream's latest value, and no tuple is kept
/// for a later request. Nothing is given back for a value (not even a first one that cannot make a
/// tuple yet). It finishes when every upstream has finished. This is Combine's rule as recorded
/// against it (OpenCombine's `CombineLatestTests.testChildDemand` and `testUpstreamExceedsDemand`,
/// CombineX's `CombineLatestSpec` "should always return none from sync backpressure").
@usableFromInline
struct CombineLatestMachine: CombinerMachine {
    /// What the downstream asked for and has not been sent yet.
    @usableFromInline var demand = Subscribers.Demand.none
    /// Per upstream: it has sent a value.
    var hasValue: [Bool]
    /// Upstreams without a value yet.
    var missing: Int
    /// Per upstream: it has completed.
    var finished: [Bool]
    /// Upstreams that have completed.
    var finishedCount = 0

    @usableFromInline
    init(count: Int) {
        hasValue = Array(repeating: false, count: count)
        missing = count
        finished = Array(repeating: false, count: count)
    }

    @inlinable static var keepsAll: Bool { false }
    @inlinable static var returnsDemandToSender: Bool { false }
    @inlinable static var completesBeforeCancelling: Bool { false }

    /// combineLatest has no sender: every upstream is asked for what the downstream returned.
    @usableFromInline
    static func route(returned: Subscribers.Demand, requestedDuringDelivery: Subscribers.Demand) -> DemandRoute {
        DemandRoute(toSender: .none, toOthers: returned)
    }

    @usableFromInline
    mutating func receive(from index: Int) -> CombinerArrival {
        if !hasValue[index] {
            hasValue[index] = true
            missing -= 1
        }
        if missing > 0 {
            return .hold
        }
        if demand > 0 {
            demand -= 1
            return .emit
        }
        // Beyond the demand: the value is only the upstream's latest now.
        return .hold
    }

    @usableFromInline
    mutating func next() -> CombinerStep {
        finishedCount == finished.count ? .finish : .idle
    }

    @usableFromInline
    mutating func finish(_ index: Int) -> Bool {
        guard !finished[index] else { return false }
        finished[index] = true
        finishedCount += 1
        return true
    }

    @usableFromInline
    func isFinished(_ index: Int) -> Bool { finished[index] }

    @usableFromInline
    var finishedUpstreams: [Bool] { finished }
}

/// zip's machine: the n-th values of every upstream make the n-th tuple.
///
/// Every value is queued (in its child); a tuple is due whenever every upstream has one queued
/// and there is demand. It finishes as soon as a finished upstream has nothing queued.
@usableFromInline
struct ZipMachine: CombinerMachine {
    /// What the downstream asked for and has not been sent yet.
    @usableFromInline var demand = Subscribers.Demand.none
    /// Values queued per upstream.
    var counts: [Int]
    /// Per upstream: it has completed.
    var finished: [Bool]

    @usableFromInline
    init(count: Int) {
        counts = Array(repeating: 0, count: count)
        finished = Array(repeating: false, count: count)
    }

    @inlinable static var keepsAll: Bool { true }
    @inlinable static var returnsDemandToSender: Bool { true }
    @inlinable static var completesBeforeCancelling: Bool { true }

    /// Combine's zip: the sender gets what the downstream returned as its return value — or, if it
    /// returned nothing, what it requested meanwhile (a request made inside the delivery is returned
    /// instead of requested, as Combine does) — and every other upstream is asked for what was
    /// returned (what was requested reached them at the request). With subjects upstream, which
    /// honour demand, asking only the sender would starve the others: a downstream that returns
    /// `.max(1)` per tuple would stop after its first request is used up.
    @usableFromInline
    static func route(returned: Subscribers.Demand, requestedDuringDelivery: Subscribers.Demand) -> DemandRoute {
        DemandRoute(toSender: returned > 0 ? returned : requestedDuringDelivery, toOthers: returned)
    }

    @usableFromInline
    mutating func receive(from index: Int) -> CombinerArrival {
        counts[index] += 1
        return takeTuple() ? .emit : .hold
    }

    @usableFromInline
    mutating func next() -> CombinerStep {
        if takeTuple() { return .emit }
        return counts.indices.contains { finished[$0] && counts[$0] == 0 } ? .finish : .idle
    }

    /// With demand and a value queued from every upstream: uses one of each and one demand.
    mutating func takeTuple() -> Bool {
        guard demand > 0, !counts.contains(0) else { return false }
        for index in counts.indices { counts[index] -= 1 }
        demand -= 1
        return true
    }

    @usableFromInline
    mutating func finish(_ index: Int) -> Bool {
        guard !finished[index] else { return false }
        finished[index] = true
        return true
    }

    @usableFromInline
    func isFinished(_ index: Int) -> Bool { finished[index] }

    @usableFromInline
    var finishedUpstreams: [Bool] { finished }
}

/// What a combiner's upstream subscription says about the subscription its child just received.
@usableFromInline
enum CombinerAcceptance: Equatable {
    /// Not kept: the caller cancels it (the downstream is gone, the child already has one, or it
    /// has completed).
    case refuse
    /// Kept.
    case keep
    /// Kept, and it was the last one zip's downstream waited for: the downstream gets the core's
    /// subscription now.
    case keepAndHandOff
}

/// The bookkeeping a ``CombinerCore`` keeps about its upstreams besides the machine: their
/// subscriptions, whether the downstream is gone, and zip's hand-off of the subscription and the
/// tuple in delivery. Like the machine it is a value with no locks (the core keeps it under its
/// lock), and not generic, so its transitions are compiled once, here: the core, specialized where
/// it is subscribed, calls them. It holds no values of a generic type.
@usableFromInline
struct CombinerLinks {
    /// `true` once the downstream is gone (cancelled or completed).
    @usableFromInline var terminated = false
    /// Per upstream: its subscription, once received and until it completes or the downstream goes.
    @usableFromInline var subscriptions: [(any Subscription)?]
    /// zip: the downstream gets the core's subscription once every child has its own (or completed).
    var awaitingHandOff = false
    /// zip: the child whose value completed the tuple being delivered (on the turn's thread), and
    /// what the downstream requested of the core from inside that delivery.
    var processing: Int?
    var processingDemand = Subscribers.Demand.none

    /// Links for `count` upstreams, none subscribed yet.
    @usableFromInline
    init(count: Int) {
        subscriptions = Array(repeating: nil, count: count)
    }

    /// zip: the downstream gets the core's subscription from the last child's subscription (or an
    /// earlier completion), not at once.
    @usableFromInline
    mutating func awaitHandOff() {
        awaitingHandOff = true
    }

    /// The downstream is gone: returns the subscriptions still held, for the caller to cancel and
    /// release after unlocking.
    @usableFromInline
    mutating func terminate() -> [(any Subscription)?] {
        let held = subscriptions
        terminated = true
        subscriptions = Array(repeating: nil, count: held.count)
        return held
    }

    /// The downstream requested `demand` of the core: the subscriptions to ask for it, or `nil` once
    /// terminated. From inside a zip delivery on the turn's thread (`onDeliveringThread`), the child
    /// whose value is being delivered is left out and gets the demand as the return of its
    /// `receive(_:)` instead (Combine's rule).
    @usableFromInline
    mutating func request(_ demand: Subscribers.Demand, onDeliveringThread: Bool) -> [(any Subscription)?]? {
        guard !terminated else { return nil }
        var asked = subscriptions
        if let child = processing, onDeliveringThread {
            asked[child] = nil
            processingDemand += demand
        }
        return asked
    }

    /// Child `index` received `subscription`; `finished` is the machine's completed upstreams.
    @usableFromInline
    mutating func accept(_ subscription: any Subscription, at index: Int, finished: [Bool]) -> CombinerAcceptance {
        guard !terminated, subscriptions[index] == nil, !finished[index] else { return .refuse }
        subscriptions[index] = subscription
        guard awaitingHandOff,
            !subscriptions.indices.contains(where: { subscriptions[$0] == nil && !finished[$0] })
        else { return .keep }
        awaitingHandOff = false
        return .keepAndHandOff
    }

    /// Child `index` completed (the machine has recorded it): its subscription is forgotten. `true`
    /// if zip's downstream still waits for the core's subscription: it gets it first.
    @usableFromInline
    mutating func completed(_ index: Int) -> Bool {
        subscriptions[index] = nil
        guard awaitingHandOff else { return false }
        awaitingHandOff = false
        return true
    }

    /// zip: the tuple child `child` completed is being delivered. Returns the delivery it nests in
    /// (if any), to give back to ``endDelivery(restoring:)``.
    @usableFromInline
    mutating func beginDelivery(from child: Int) -> (processing: Int?, demand: Subscribers.Demand) {
        let outer = (processing, processingDemand)
        processing = child
        processingDemand = .none
        return outer
    }

    /// zip: the delivery begun by ``beginDelivery(from:)`` returned; `outer` is back in delivery.
    /// Returns what the downstream requested of the core from inside it.
    @usableFromInline
    mutating func endDelivery(restoring outer: (processing: Int?, demand: Subscribers.Demand)) -> Subscribers.Demand {
        let requested = processingDemand
        (processing, processingDemand) = outer
        return requested
    }

    /// The subscriptions to ask for the demand the downstream returned, all but `child`'s (the
    /// sender's, which gets its share as the return of its `receive(_:)`).
    @usableFromInline
    func subscriptions(except child: Int?) -> [(any Subscription)?] {
        var others = subscriptions
        if let child { others[child] = nil }
        return others
    }
}
