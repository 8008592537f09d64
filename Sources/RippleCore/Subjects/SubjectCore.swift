#if !(canImport(Darwin) || RIPPLE_PORTABLE_ATOMICS)
import Synchronization  // AtomicCell is Synchronization.Atomic here (Sync/AtomicCell.swift)
#endif

/// The machinery shared by ``PassthroughSubject``, ``CurrentValueSubject``,
/// ``ObservableObjectPublisher`` and `@Published`'s `$property` publisher.
///
/// One lock guards the subject's state *and* the state of every conduit (one conduit per
/// subscriber), so a send takes short critical sections on one cache line and no per-subscriber lock.
/// It is a ``TurnLock``, run by the one turn runner (``TurnRunner``): each conduit keeps its subscriber's ``DeliveryTurn``
/// (in its ``ConduitMachine``) under the subject's lock, and has the runner perform what the
/// machine decides — enter, deliver unlocked, leave, pin — as every operator that delivers in turns
/// does through ``TurnStorage``.
///
/// Delivery rules (the engine's contract, `Documentation/Engine.md`), each tested in
/// `SubjectReentrancyTests`, `DeliveryContractTests` and `SubjectConcurrencyTests`:
/// - Every value and completion is delivered on the thread that sent it. Calls to one subscriber
///   never overlap: if thread B offers a value while thread A is inside that subscriber's `receive`,
///   B charges the demand, waits for its turn (first come, first served; asleep in the kernel), and
///   then delivers its value itself. No lock is held while user code runs.
/// - A send made *from inside* `receive` on the same thread is delivered at once, nested, as in Combine.
/// - A subscriber's `receive(subscription:)` runs in its turn too, so it never overlaps a delivery.
/// - Order is per subscriber: each sees each sender's values in that sender's order; two
///   subscribers may see two concurrent senders interleaved differently.
/// - Subscribers are kept in subscription order; cancelling leaves a hole that is trimmed from the end
///   or compacted once holes outnumber live subscribers, so subscribe and cancel are amortised O(1).
///
/// Layout for speed (see `Documentation/Engine.md`): everything generic is specialized in client
/// code through `@inlinable`; what is reached through dynamic dispatch (cancel, through
/// ``AnyCancellable``) touches only non-generic state, so it needs no runtime metadata lookups; and a
/// delivery retains nothing (see ``SubjectConduit`` for why that is safe).
@usableFromInline
final class SubjectCore<Output, Failure: Error>: TurnLock<SubjectState<Output, Failure>>, @unchecked Sendable {
    /// The subscribers and upstreams; guarded by `lock`, and so are the mutable fields of every
    /// conduit in it, its delivery turn among them. Not generic, so cancelling needs no generic
    /// metadata.
    @exclusivity(unchecked) @usableFromInline var registry: SubjectRegistry
    /// `true` for ``CurrentValueSubject``: new subscribers get the current value on their first demand.
    @usableFromInline let replaysCurrent: Bool
    /// `true` for ``ObservableObjectPublisher``: as in Combine, every send reaches every subscriber
    /// that has made a request, whatever it asked for (its first request counts as unlimited).
    @usableFromInline let ignoresDemand: Bool
    /// The public subject, retained while it has subscribers — as Combine's subscriptions retain
    /// their subject until cancelled or completed, so a subject only its subscribers (and weak
    /// references) keep goes on delivering. Set by the first subscriber, let go (after unlocking:
    /// the subject's `deinit` cancels its upstreams) when the last one leaves. Guarded by `lock`.
    @exclusivity(unchecked) @usableFromInline var retainedSubject: AnyObject?

    @inlinable
    init(current: Output?, ignoresDemand: Bool = false) {
        replaysCurrent = current != nil
        self.ignoresDemand = ignoresDemand
        registry = SubjectRegistry(upstreamRequested: current != nil)
        super.init(state: SubjectState(current: current))
    }

    // MARK: Subject operations

    /// Subscribes `subscriber`; `subject` is the public subject its subscription keeps alive (`nil`
    /// for publishers whose lifetime is their owner's: `objectWillChange`, `$property`).
    ///
    /// `receive(subscription:)` runs inside the subscriber's delivery turn, so it never overlaps a
    /// delivery: a value or completion another thread sends meanwhile waits for the turn (or, with
    /// no demand yet, is dropped, as Combine's PassthroughSubject drops it), while a request, send
    /// or cancel made from inside it on this thread is nested.
    @inlinable
    func receive<S: Subscriber>(subscriber: S, keeping subject: AnyObject? = nil)
    where S.Input == Output, S.Failure == Failure {
        lock.lock()
        if let completion = state.completion {
            lock.unlock()
            subscriber.receive(subscription: Subscriptions.empty)
            subscriber.receive(completion: completion)
            return
        }
        // The closure is created here, where `S` is known, so delivery is specialized end to end.
        let conduit = SubjectConduit(
            core: self, slot: registry.slots.count,
            downstream: .subscriber { delivery in
                switch delivery {
                case .value(let value): return subscriber.receive(value)
                case .completion(let completion):
                    subscriber.receive(completion: completion)
                    return .none
                }
            })
        retainLocked(subject)
        registry.append(conduit)
        conduit.setUpLocked { subscriber.receive(subscription: conduit) }
    }

    /// `sink` on a subject-backed publisher (see ``_SubjectBacked``): the closures are attached to a
    /// conduit directly, with unlimited demand. Observably the same as subscribing a
    /// ``Subscribers/Sink`` (values until completion, closures released on completion or cancel,
    /// nothing after cancel), minus one object, one lock and one retain per value.
    ///
    /// With no completion closure the conduit keeps `receiveValue` itself, with no wrapper closure
    /// (one allocation fewer per subscriber, one indirect call fewer per value).
    @inlinable
    func attachSink(
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?,
        keeping subject: AnyObject? = nil,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        // Made before locking (nothing can reach the conduit until it is in the registry), so the
        // two allocations stay out of the critical section, and the token's retain is the only
        // one: the registry takes the conduit over.
        let conduit = makeSinkConduit(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        let token = AnyCancellable(base: conduit)
        lock.lock()
        if let completion = state.completion {
            // Never attached: the token's cancel finds the conduit terminated and does nothing; the
            // closures go with the conduit, after unlocking.
            conduit.machine.terminated = true
            lock.unlock()
            receiveCompletion?(completion)
            return AnyCancellable(object: EmptySubscription.shared)
        }
        conduit.slot = UInt32(registry.slots.count)
        retainLocked(subject)
        guard !replaysCurrent else {
            registry.append(conduit)
            lock.unlock()
            conduit.request(.unlimited)  // delivers the current value, in turn
            return token
        }
        // What `request(.unlimited)` would do, in this same critical section: nothing is replayed.
        conduit.machine.demand = .unlimited
        let upstreams = registry.upstreamsToRequest()
        registry.append(consume conduit)
        lock.unlock()
        for upstream in upstreams { upstream.request(.unlimited) }
        return token
    }

    /// The conduit for ``attachSink(receiveCompletion:receiveValue:)``, not yet in the registry.
    @inlinable @inline(__always)
    func makeSinkConduit(
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?,
        receiveValue: @escaping (Output) -> Void
    ) -> SubjectConduit<Output, Failure> {
        guard let receiveCompletion else {
            return SubjectConduit(core: self, slot: 0, downstream: .values(receiveValue))
        }
        return SubjectConduit(
            core: self, slot: 0,
            downstream: .subscriber { delivery in
                switch delivery {
                case .value(let value): receiveValue(value)
                case .completion(let completion): receiveCompletion(completion)
                }
                return .none
            })
    }

    /// Sends `value` to every conduit. `storeAfterCompletion` is `CurrentValueSubject.value`'s setter:
    /// it stores the value even when the subject has completed (and then publishes nothing).
    ///
    /// The value replaced as current (CurrentValueSubject) is released after unlocking: its deinit
    /// may be user code that reads the subject.
    @inlinable
    func send(_ value: Output, storeAfterCompletion: Bool = false) {
        lock.lock()
        guard state.completion == nil else {
            if storeAfterCompletion {
                let old = state.current
                state.current = value
                lock.unlock()
                withExtendedLifetime(old) {}
                return
            }
            lock.unlock()
            return
        }
        var old: Output?
        if replaysCurrent {
            old = state.current
            state.current = value
            state.version &+= 1
        }
        defer { withExtendedLifetime(old) {} }
        let version = state.version
        if registry.slots.count == 1, let only = registry.unretainedConduit(at: 0) {
            // One subscriber, the common case: decide its delivery in this same critical section.
            // No retain: the registry keeps the conduit alive, or, if it drops the conduit during
            // the delivery, the conduit pins itself (see `SubjectConduit`).
            only._withUnsafeGuaranteedRef { conduit in
                unsafeDowncast(conduit, to: SubjectConduit<Output, Failure>.self)
                    .offerLocked(value, version: version, thread: currentThreadID())
            }
            return
        }
        // Retains the buffer, and so every conduit in it, for the loop; the buffer is copied only if
        // a subscribe or cancel happens meanwhile.
        let slots = registry.slots
        lock.unlock()
        let thread = currentThreadID()
        SubjectRegistry.forEachConduit(in: slots) { conduit in
            unsafeDowncast(conduit, to: SubjectConduit<Output, Failure>.self).offer(value, version: version, thread: thread)
        }
    }

    /// Makes `value` the current value without sending it, and returns the value it replaces, for
    /// the caller to release after unlocking its own lock: for a `@Published` property's write that
    /// stores over the value a nested write stored (its subscribers were sent this value before
    /// the nested one). Out of line: rare.
    @usableFromInline
    func exchangeCurrent(with value: Output) -> Output? {
        lock.lock()
        let old = state.current
        state.current = value
        lock.unlock()
        return old
    }

    @inlinable
    func send(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard state.completion == nil else {
            lock.unlock()
            return
        }
        state.completion = completion
        let slots = registry.removeAll()
        let subject = retainedSubject
        retainedSubject = nil
        lock.unlock()
        for case let conduit? in slots {
            unsafeDowncast(conduit, to: SubjectConduit<Output, Failure>.self).finish(completion)
        }
        withExtendedLifetime(subject) {}  // alive until every subscriber has the completion
    }

    /// A subscriber joins: the first one retains the public subject. Called with the lock held.
    @inlinable
    func retainLocked(_ subject: AnyObject?) {
        lock.assertHeld()
        if registry.liveCount == 0, let subject { retainedSubject = subject }
    }

    /// A subscriber left: if it was the last, returns the public subject, for the caller to let go
    /// after unlocking. Called with the lock held.
    @usableFromInline
    func releaseIfUnsubscribedLocked() -> AnyObject? {
        lock.assertHeld()
        guard registry.liveCount == 0, let subject = retainedSubject else { return nil }
        retainedSubject = nil
        return subject
    }

    /// Not generic in what it touches (the lock and the registry), so not inlined: one copy for
    /// every subject.
    @usableFromInline
    func send(subscription: any Subscription) {
        lock.lock()
        registry.upstreams.append(subscription)
        let requestNow = registry.upstreamRequested
        lock.unlock()
        if requestNow {
            subscription.request(.unlimited)
        }
    }

    /// Cancels every upstream subscription (the public subject's `deinit`). Not inlined, as
    /// ``send(subscription:)``.
    @usableFromInline
    func cancelUpstreams() {
        lock.lock()
        let upstreams = registry.upstreams
        registry.upstreams = []
        lock.unlock()
        for upstream in upstreams {
            upstream.cancel()
        }
    }
}

/// What a subject's lock guards besides its subscribers (``SubjectRegistry``).
@usableFromInline
struct SubjectState<Output, Failure: Error> {
    @usableFromInline var completion: Subscribers.Completion<Failure>?
    /// The current value (``CurrentValueSubject`` only).
    @usableFromInline var current: Output?
    /// Incremented by every send (``CurrentValueSubject`` only): tells a replayed value from a new one.
    @usableFromInline var version: UInt64 = 0

    @inlinable
    init(current: Output?) {
        self.current = current
    }
}

/// A subject's subscribers, in subscription order, and its upstream subscriptions.
@usableFromInline
struct SubjectRegistry {
    /// `nil` marks a cancelled conduit not yet compacted away.
    @usableFromInline var slots: ContiguousArray<ConduitBase?> = []
    @usableFromInline var liveCount = 0
    /// Subscriptions received through `send(subscription:)`.
    @usableFromInline var upstreams: ContiguousArray<any Subscription> = []
    /// Whether the upstreams have been asked for `.unlimited` (PassthroughSubject does so once a
    /// subscriber has demand; CurrentValueSubject at once).
    @usableFromInline var upstreamRequested: Bool

    @inlinable
    init(upstreamRequested: Bool) {
        self.upstreamRequested = upstreamRequested
    }

    /// Adds a subscriber's conduit at the end. Inlined (unlike the registry's other transitions): out
    /// of line it cost "sink+cancel" a retain and a release.
    @inlinable
    mutating func append(_ conduit: __owned ConduitBase) {
        slots.append(conduit)
        liveCount += 1
    }

    /// The conduit at `index` (`nil` for a hole), without retaining it: valid while the caller holds
    /// the lock.
    @inlinable @inline(__always)
    func unretainedConduit(at index: Int) -> Unmanaged<ConduitBase>? {
        slots.withUnsafeBufferPointer { buffer in
            UnsafeRawPointer(buffer.baseAddress!)
                .load(fromByteOffset: index &* MemoryLayout<ConduitBase?>.stride, as: UnsafeRawPointer?.self)
                .map { Unmanaged<ConduitBase>.fromOpaque($0) }
        }
    }

    /// Calls `body` with each live conduit of `slots`, borrowed from the array rather than retained
    /// one by one: `slots` keeps them all alive for the call. (Iterating the array would retain and
    /// release every conduit — two atomic operations per subscriber per send.)
    @inlinable @inline(__always)
    static func forEachConduit(in slots: ContiguousArray<ConduitBase?>, _ body: (ConduitBase) -> Void) {
        slots.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let raw = UnsafeRawPointer(base)
            for index in 0..<buffer.count {
                let object = raw.load(
                    fromByteOffset: index &* MemoryLayout<ConduitBase?>.stride, as: UnsafeRawPointer?.self)
                if let object {
                    Unmanaged<ConduitBase>.fromOpaque(object)._withUnsafeGuaranteedRef(body)
                }
            }
        }
    }

    /// Removes every conduit (the subject completed) and returns them, for the caller to finish and
    /// release after unlocking.
    @usableFromInline
    mutating func removeAll() -> ContiguousArray<ConduitBase?> {
        let all = slots
        slots = []
        liveCount = 0
        return all
    }

    /// Removes the conduit at `slot`, keeping order; amortised O(1).
    @usableFromInline
    mutating func remove(slot: Int) {
        guard slot < slots.count, slots[slot] != nil else { return }
        slots[slot] = nil
        liveCount -= 1
        // Looked at without retaining: `slots.last` would retain and release the live conduit that
        // ends the trimming (two atomic operations on every cancel).
        while !slots.isEmpty, unretainedConduit(at: slots.count - 1) == nil {
            slots.removeLast()
        }
        let holes = slots.count - liveCount
        if holes > 16 && holes > liveCount {
            var compacted = ContiguousArray<ConduitBase?>()
            compacted.reserveCapacity(liveCount)
            for case let conduit? in slots {
                conduit.move(toSlot: compacted.count)
                compacted.append(conduit)
            }
            slots = compacted
        }
    }

    /// The upstreams to ask for `.unlimited`, the first time any subscriber has demand. Inlined: out
    /// of line, returning the (usually empty) array cost "sink+cancel" a retain and a release.
    @inlinable
    mutating func upstreamsToRequest() -> ContiguousArray<any Subscription> {
        guard !upstreamRequested else { return [] }
        upstreamRequested = true
        return upstreams
    }
}

/// The part of a conduit that is not generic, so ``AnyCancellable`` can cancel it with a plain
/// virtual call (as a ``CancellableObject``). It has no stored properties: the subclass lays all of
/// its fields out itself, which keeps a conduit in a smaller malloc size class.
@usableFromInline
class ConduitBase: CancellableObject, @unchecked Sendable {
    @inlinable
    override init() {}

    /// Records the conduit's new position after the registry compacts (under the subject's lock).
    /// Overridden by ``SubjectConduit``.
    @usableFromInline
    func move(toSlot slot: Int) {}
}

/// How a conduit reaches its subscriber.
///
/// Non-copyable on purpose: a conduit calls it *in place* (a borrowing switch on its own stored
/// property), so a delivery retains nothing. Copying it out, as a plain closure property would be,
/// costs a retain and a release of the closure context per value — two atomic operations. In
/// exchange the conduit must never replace it while a thread holds the delivery turn: see
/// ``SubjectConduit/terminateLocked()``.
@usableFromInline
enum ConduitDownstream<Output, Failure: Error>: ~Copyable {
    /// A subscriber, reached through a closure made where its type is known (so it is specialized).
    case subscriber((SubjectConduit<Output, Failure>.Delivery) -> Subscribers.Demand)
    /// `sink(receiveValue:)`: the user's closure itself, with no wrapper around it.
    case values((Output) -> Void)
    /// Terminated: the subscriber has been released.
    case released

    @inlinable @inline(__always)
    borrowing func receive(_ value: Output) -> Subscribers.Demand {
        switch self {
        case .subscriber(let deliver): return deliver(.value(value))
        case .values(let receiveValue):
            receiveValue(value)
            return .none
        case .released: return .none
        }
    }

    @inlinable
    borrowing func receive(completion: Subscribers.Completion<Failure>) {
        switch self {
        case .subscriber(let deliver): _ = deliver(.completion(completion))
        case .values: break
        case .released: break
        }
    }

    /// Moves the subscriber out, leaving `.released`.
    @inlinable
    mutating func take() -> ConduitDownstream {
        let taken = consume self
        self = .released
        return taken
    }
}

/// The subscription a subject hands to one subscriber: a ``ConduitMachine`` kept under the
/// subject's lock, and the sequence around each of its transitions — apply it under the lock,
/// perform what it returns after unlocking.
///
/// Generic only over the subject's `Output` and `Failure`, so the subject calls it directly and the
/// compiler specializes both together; the subscriber is reached through the machine's
/// `downstream`, called in place.
///
/// Serial delivery: calls to the subscriber are serialized by the machine's ``DeliveryTurn``. A
/// thread that finds the subscriber busy on another thread waits for its turn (first come, first
/// served) and then delivers its own value on its own thread; a send from inside the subscriber's
/// own `receive` is delivered at once, nested. Every turn is taken and given back under the lock.
///
/// Lifetime during a delivery: the thread delivering holds no reference of its own. A send to many
/// subscribers keeps them alive through its snapshot of the registry; a send to the only subscriber
/// relies on the registry itself; a thread that has to wait takes a retain. If the conduit leaves
/// the registry while a thread holds its turn (cancelled, or the subject completed), it *pins*
/// itself — one retain, taken under the lock — and the thread that finally gives the turn back
/// releases the subscriber and drops the pin as its very last step. So the uncontended send path
/// costs no retain or release at all.
@usableFromInline
final class SubjectConduit<Output, Failure: Error>: ConduitBase, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
{
    /// What the conduit hands a subscriber.
    @usableFromInline
    enum Delivery {
        case value(Output)
        case completion(Subscribers.Completion<Failure>)
    }

    @usableFromInline let core: SubjectCore<Output, Failure>
    /// Guarded by `core.lock`, except that the thread holding the turn calls `machine.downstream`
    /// in place with the lock released (the machine never replaces it while the turn is held).
    /// Swift lays class fields out in declaration order: the machine's small fields pack behind its
    /// 17-byte `downstream`, so a conduit is 72 bytes, an 80-byte malloc block.
    @exclusivity(unchecked) @usableFromInline var machine: ConduitMachine<Output, Failure>
    /// Position in the registry's `slots`; guarded by `core.lock`.
    @exclusivity(unchecked) @usableFromInline var slot: UInt32

    @inlinable
    init(core: SubjectCore<Output, Failure>, slot: Int, downstream: consuming ConduitDownstream<Output, Failure>) {
        self.core = core
        self.machine = ConduitMachine(downstream: downstream, replaysCurrent: core.replaysCurrent)
        self.slot = UInt32(slot)
        super.init()
    }

    // Combine's names (ObservableObjectPublisher's only user of `ignoresDemand`).
    @usableFromInline var description: String {
        core.ignoresDemand ? "ObservableObjectPublisher" : core.replaysCurrent ? "CurrentValueSubject" : "PassthroughSubject"
    }

    @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }

    @usableFromInline var playgroundDescription: Any { description }

    @usableFromInline
    override func move(toSlot slot: Int) {
        self.slot = UInt32(slot)
    }

    // MARK: Values from the subject

    @inlinable
    func offer(_ value: Output, version: UInt64, thread: UInt) {
        core.lock.lock()
        offerLocked(value, version: version, thread: thread)
    }

    /// `offer` with the core's lock already held; unlocks it.
    @inlinable
    func offerLocked(_ value: Output, version: UInt64, thread: UInt) {
        core.lock.assertHeld()
        let offer = machine.offer(
            thread: thread, version: version, subjectCompleted: core.state.completion != nil,
            replays: core.replaysCurrent)
        guard case .entered(let nested) = enterLocked(offer.entry) else { return }
        let more = core.unlocked { machine.downstream.receive(value) }
        deliveredLocked(offer.unlimited ? .none : more, nested: nested)
    }

    /// Runs `setUp` (the subscriber's `receive(subscription:)`) in the conduit's first turn, with
    /// the lock released: a value another thread offers meanwhile waits for the turn, and calls
    /// from inside `setUp` on this thread are nested. Then, as after a delivery, delivers a current
    /// value still owed and gives the turn back. Called with the lock held, on a conduit just added
    /// to the registry (its turn is free); unlocks.
    @inlinable
    func setUpLocked(_ setUp: () -> Void) {
        guard case .entered(let nested) = enterLocked(machine.enter(currentThreadID())) else { return }
        core.unlocked(setUp)
        deliveredLocked(.none, nested: nested)
    }

    @inlinable
    func finish(_ completion: Subscribers.Completion<Failure>) {
        core.lock.lock()
        guard case .entered(let nested) = enterLocked(machine.enterForCompletion(thread: currentThreadID())) else {
            return
        }
        // The turn is this thread's, so the subscriber stays in place (pinned) for the call below.
        _ = terminateLocked()
        core.unlocked { machine.downstream.receive(completion: completion) }
        leaveLocked(nested: nested)
    }

    // MARK: Subscription

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        require(demand > 0, "\(description): demand must be greater than zero (got \(demand))")
        // ObservableObjectPublisher: once asked for anything, every send goes through.
        let asked: Subscribers.Demand = core.ignoresDemand ? .unlimited : demand
        core.lock.lock()
        switch machine.request(asked, thread: currentThreadID(), subjectCompleted: core.state.completion != nil) {
        case .done:
            core.lock.unlock()
        case .askUpstreams:
            let upstreams = core.replaysCurrent ? [] : core.registry.upstreamsToRequest()
            core.lock.unlock()
            for upstream in upstreams { upstream.request(.unlimited) }
        case .deliverCurrent(let entry):
            // CurrentValueSubject: the current value is owed; deliver it on this thread, in turn.
            guard case .entered(let nested) = enterLocked(entry) else { return }
            guard machine.takeCurrentIfOwed(subjectCompleted: core.state.completion != nil, version: core.state.version)
            else {
                // Another thread's delivery, while this one waited, settled what was owed.
                leaveLocked(nested: nested)
                return
            }
            // `owesCurrent` is only ever true for a CurrentValueSubject, whose `current` is never nil.
            let value = core.state.current!
            let more = core.unlocked { machine.downstream.receive(value) }
            deliveredLocked(more, nested: nested)
        }
    }

    /// Cancels delivery and releases the subscriber. Reached through ``AnyCancellable`` by a virtual
    /// call into unspecialized code, so it touches nothing whose layout depends on `Output`.
    ///
    /// It does not wait for a delivery in progress on another thread: that call finishes, and a
    /// delivery that thread had already decided may still begin (at most one call, by the thread
    /// holding the turn); nothing is decided after `cancel()` returns, and threads waiting for
    /// their turn give up.
    @usableFromInline
    override func cancel() {
        core.lock.lock()
        let released = terminateLocked()
        let subject = core.releaseIfUnsubscribedLocked()
        core.lock.unlock()
        // Released here, outside the lock: their deinits may run user code.
        _ = consume released
        withExtendedLifetime(subject) {}
    }

    // MARK: Performing the machine's actions, through the subject's turn runner

    /// Performs an entry through the subject's ``TurnRunner/enterLocked(_:keeping:resumed:giveBack:)``
    /// (with the lock held): ``TurnEntry/entered(nested:)`` with the lock still held and the turn
    /// this thread's — after parking until it is handed over, if it must wait (the conduit kept
    /// alive meanwhile: this thread holds no snapshot) — or ``TurnEntry/released``, with the lock
    /// released, when there is nothing to call (dropped, or cancelled while this thread waited).
    @inlinable @inline(__always)
    func enterLocked(_ entry: ConduitMachine<Output, Failure>.Entry) -> TurnEntry {
        core.enterLocked(entry, keeping: self, resumed: { machine.resumed() }, giveBack: { leaveLocked() })
    }

    /// Called, with the lock held, after a call returns (`returned` is `.none` when the demand was
    /// unlimited): adds the demand; then, unless this was a nested call, delivers a current value
    /// still owed (CurrentValueSubject) and gives the turn back. Unlocks.
    @inlinable @inline(__always)
    func deliveredLocked(_ returned: Subscribers.Demand, nested: Bool) {
        var more = returned
        while true {
            switch machine.delivered(
                more, nested: nested, subjectCompleted: core.state.completion != nil,
                replays: core.replaysCurrent, version: core.state.version)
            {
            case .nested:
                core.lock.unlock()
                return
            case .deliverCurrent:
                let value = core.state.current!
                more = core.unlocked { machine.downstream.receive(value) }
            case .leave(let leave):
                core.leaveLocked(leave, pinnedBy: self)
                return
            }
        }
    }

    /// Gives the turn back unless `nested` (called with the lock and the turn held; unlocks). The
    /// conduit may be gone when it returns.
    @inlinable
    func leaveLocked(nested: Bool = false) {
        core.leaveLocked(nested: nested, pinnedBy: self) { machine.leave() }
    }

    /// Terminates (a cancel, or a completion about to be delivered with the turn held) and removes
    /// the conduit from the subject. Returns the subscriber, for the caller to release after
    /// unlocking — `.released` if a thread (this one included, further up its stack) holds the
    /// turn: then it stays in place, the conduit pins itself, and the thread that gives the turn
    /// back releases both. Called with the lock held.
    @inlinable
    func terminateLocked() -> ConduitDownstream<Output, Failure> {
        core.lock.assertHeld()
        switch machine.terminate() {
        case .none:
            return .released
        case .pin:
            core.registry.remove(slot: Int(slot))
            core.pinLocked(self)
            return .released
        case .release(let downstream):
            core.registry.remove(slot: Int(slot))
            return downstream
        }
    }
}
