@testable import Ripple
@testable import RippleCore
import Testing

/// An observed `@Published` property's state as a value, row by row: what a write's two
/// transitions decide — the callouts it makes, whether and over what it stores, the version, the
/// tracking observers it fires, the turn it hands over — no threads, no locks, no subscribers.
@Suite struct PublishedStateTests {
    /// A tracking observer for `phases` that records nothing (the transitions never call it).
    private func observer(_ phases: TrackingPhases, continuous: Bool = false) -> TrackingObserver {
        TrackingObserver(phases: phases, continuous: continuous) { _ in }
    }

    /// The callouts of a write that begins at once, or `nil` (recorded) if it waits.
    private func callOut(
        _ state: inout PublishedState, thread: UInt, announce: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> PublishedState.Callouts? {
        switch state.beginWrite(thread: thread, name: "x") {
        case .write(let role):
            return state.callouts(role, announce: announce)
        case .wait:
            Issue.record("expected the write to begin at once", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// What a write that stores does, or `nil` (recorded) if it starts over.
    private func store(
        _ state: inout PublishedState, _ callouts: PublishedState.Callouts,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> PublishedState.Store? {
        switch state.endWrite(callouts) {
        case .store(let store):
            return store
        case .startOver:
            Issue.record("expected the write to store", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// Nobody tracks the property and it has no `$property` (only an observation, made, say, by an
    /// external tracking hook): the write takes no turn, calls nothing out, stores, and moves the
    /// version.
    @Test func aWriteWhileUnobservedCallsNothingOutAndStores() {
        var state = PublishedState()
        guard let callouts = callOut(&state, thread: 1) else { return }
        #expect(callouts.role == .unordered)
        #expect(callouts.startVersion == 0)
        #expect(callouts.willSet.isEmpty)
        #expect(callouts.willChange == nil)
        #expect(callouts.projection == nil)
        #expect(!state.writes.turn.isHeld)
        guard let stored = store(&state, callouts) else { return }
        #expect(stored.exit == .idle)
        #expect(!stored.resetsProjection)
        #expect(stored.version == 1)
        #expect(stored.didSet.isEmpty)
        #expect(state.tracker.version == 1)
    }

    /// A linked `objectWillChange` and a `$property` are called out (borrowed, not retained); a
    /// write with a `$property` holds the turn until it ends.
    @Test func aWriteWithAWillChangeLinkAndAProjectionCallsBothOutInTurn() {
        var state = PublishedState()
        let publisher = ObservableObjectPublisher()
        let subject = SubjectCore<Int, Never>(current: 0)
        let answer1 = state.link(publisher)
        #expect(answer1 === publisher)
        let answer2 = state.link(ObservableObjectPublisher())
        #expect(answer2 === publisher)  // linked once
        state.project(subject)
        guard let callouts = callOut(&state, thread: 1) else { return }
        #expect(callouts.role == .ordered)
        #expect(callouts.willChange?.takeUnretainedValue() === publisher)
        #expect(same(callouts.projection?.takeUnretainedValue(), subject))
        #expect(state.writes.turn.owner == 1)
        guard let stored = store(&state, callouts) else { return }
        #expect(stored.exit == .idle)
        #expect(!stored.resetsProjection)
        #expect(!state.writes.turn.isHeld)
    }

    /// Tracking observers: a one-shot armed for will-set is taken (and leaves) as the write begins;
    /// a continuous one armed for did-set is taken as it stores and stays armed.
    @Test func aWriteWithObserversTakesEachInItsPhase() {
        var state = PublishedState()
        let willSet = observer(.willSet)
        let didSet = observer(.didSet, continuous: true)
        let answer3 = state.tracker.arm(willSet, ifStillAt: 0)
        #expect(answer3)
        let answer4 = state.tracker.arm(didSet, ifStillAt: 0)
        #expect(answer4)
        guard let callouts = callOut(&state, thread: 1) else { return }
        #expect(callouts.willSet.first === willSet)
        #expect(callouts.willSet.more == nil)
        #expect(state.tracker.firstObserver == nil)  // the one-shot left
        #expect(state.tracker.moreObservers.map { $0 === didSet } == [true])
        guard let stored = store(&state, callouts) else { return }
        #expect(stored.didSet.first === didSet || stored.didSet.more?.first === didSet)
        #expect(state.tracker.hasObservers)  // the continuous one stays
        #expect(stored.version == 1)
    }

    /// A write that starts over (see below) does not announce itself again: no will-set
    /// observers, no will-change.
    @Test func aWriteThatDoesNotAnnounceCallsOutOnlyToTheProjection() {
        var state = PublishedState()
        let willSet = observer(.willSet)
        _ = state.link(ObservableObjectPublisher())
        state.project(SubjectCore<Int, Never>(current: 0))
        let answer5 = state.tracker.arm(willSet, ifStillAt: 0)
        #expect(answer5)
        guard let callouts = callOut(&state, thread: 1, announce: false) else { return }
        #expect(callouts.willSet.isEmpty)
        #expect(callouts.willChange == nil)
        #expect(callouts.projection != nil)
        #expect(state.tracker.firstObserver === willSet)  // still armed
    }

    /// Without a `$property`, a write from inside a will-set observer (or `objectWillChange`
    /// subscriber) of this thread's write is a write of its own: both take no turn; the inner one
    /// stores first, the outer one stores over it with nothing to keep in step.
    @Test func aNestedWriteFromAWillSetObserverWithoutProjectionStoresFirst() {
        var state = PublishedState()
        guard let outer = callOut(&state, thread: 1), let inner = callOut(&state, thread: 1) else { return }
        #expect(outer.role == .unordered)
        #expect(inner.role == .unordered)
        let answer6 = store(&state, inner)
        #expect(answer6?.version == 1)
        guard let stored = store(&state, outer) else { return }
        #expect(!stored.resetsProjection)
        #expect(stored.version == 2)
    }

    /// With a `$property`, a write from inside this thread's write (a will-set observer or a
    /// `$property` subscriber assigning the property) runs nested without waiting and stores
    /// first; the outer write stores over it and sets `$property`'s current value back to its own.
    @Test func aNestedWriteWithProjectionStoresFirstAndTheOuterResetsTheProjection() {
        var state = PublishedState()
        state.project(SubjectCore<Int, Never>(current: 0))
        guard let outer = callOut(&state, thread: 1), let inner = callOut(&state, thread: 1) else { return }
        #expect(outer.role == .ordered)
        #expect(inner.role == .nested)
        guard let innerStored = store(&state, inner) else { return }
        #expect(innerStored.exit == .idle)
        #expect(!innerStored.resetsProjection)
        #expect(state.writes.turn.owner == 1)  // the outer write still holds the turn
        guard let outerStored = store(&state, outer) else { return }
        #expect(outerStored.resetsProjection)
        #expect(outerStored.exit == .idle)
        #expect(outerStored.version == 2)
        #expect(!state.writes.turn.isHeld)
    }

    /// Two writers: the second waits; the first, as it stores, hands it the turn; handed the turn,
    /// it writes as an ordered write from the version the first one left.
    @Test func aSecondWriterWaitsAndIsHandedTheTurn() {
        var state = PublishedState()
        state.project(SubjectCore<Int, Never>(current: 0))
        guard let first = callOut(&state, thread: 1) else { return }
        guard case .wait(let waiter) = state.beginWrite(thread: 2, name: "x") else {
            Issue.record("expected the second writer to wait")
            return
        }
        guard let firstStored = store(&state, first) else { return }
        #expect(firstStored.exit == .handOff(waiter))
        #expect(state.writes.turn.owner == 2)
        let second = state.callouts(.ordered, announce: true)  // handed the turn: an ordered write
        #expect(second.role == .ordered)
        #expect(second.startVersion == 1)
        guard let secondStored = store(&state, second) else { return }
        #expect(!secondStored.resetsProjection)  // the first write was not nested in it
        #expect(secondStored.exit == .idle)
        #expect(secondStored.version == 2)
        #expect(!state.writes.turn.isHeld)
    }

    /// A `$property` made while a write without one makes its callouts: the write starts over,
    /// without storing or moving the version, and then goes through the new `$property` in turn.
    @Test func aProjectionMadeDuringAWriteMakesItStartOver() {
        var state = PublishedState()
        guard let callouts = callOut(&state, thread: 1) else { return }
        state.project(SubjectCore<Int, Never>(current: 0))
        guard case .startOver = state.endWrite(callouts) else {
            Issue.record("expected the write to start over")
            return
        }
        #expect(state.tracker.version == 0)
        guard let again = callOut(&state, thread: 1, announce: false) else { return }
        #expect(again.role == .ordered)
        #expect(again.projection != nil)
        let answer7 = store(&state, again)
        #expect(answer7?.version == 1)
    }

    /// An observer cancelled while a write makes its callouts (from another thread, or from a
    /// will-set callout) is disarmed: the write's store fires nothing.
    @Test func anObserverCancelledDuringAWriteIsNotFired() {
        var state = PublishedState()
        let didSet = observer(.didSet)
        let answer8 = state.tracker.arm(didSet, ifStillAt: 0)
        #expect(answer8)
        guard let callouts = callOut(&state, thread: 1) else { return }
        #expect(callouts.willSet.isEmpty)  // armed for did-set only
        let answer9 = state.tracker.disarm(didSet)
        #expect(answer9 === didSet)
        guard let stored = store(&state, callouts) else { return }
        #expect(stored.didSet.isEmpty)
        #expect(!state.tracker.hasObservers)
    }

    /// A one-shot armed for both phases fires at will-set and leaves: a cancel during the write
    /// finds nothing to disarm, and the store fires nothing more.
    @Test func aOneShotTakenAtWillSetIsGoneByTheStore() {
        var state = PublishedState()
        let both = observer([.willSet, .didSet])
        let answer10 = state.tracker.arm(both, ifStillAt: 0)
        #expect(answer10)
        guard let callouts = callOut(&state, thread: 1) else { return }
        #expect(callouts.willSet.first === both)
        let answer11 = state.tracker.disarm(both)
        #expect(answer11 == nil)
        let answer12 = store(&state, callouts)
        #expect(answer12?.didSet.isEmpty == true)
    }

    /// The cold fields: `assign(to:)` subscriptions kept and handed back once, the owner remembered
    /// once, the bridge's slot kept once.
    @Test func theColdFieldsAreKeptOnce() {
        var state = PublishedState()
        state.keep(AnyCancellable {})
        state.keep(AnyCancellable {})
        let answer13 = state.takeAssignments()
        #expect(answer13.count == 2)
        let answer14 = state.takeAssignments()
        #expect(answer14.isEmpty)
        let owner = ObservableObjectPublisher()
        state.rememberAssignOwner(owner)
        state.rememberAssignOwner(ObservableObjectPublisher())
        #expect(same(state.assignOwner, owner))
        let slot = ObservableObjectPublisher()
        let answer15 = state.keepExternalSlot(slot)
        #expect(same(answer15, slot))
        let answer16 = state.keepExternalSlot(ObservableObjectPublisher())
        #expect(same(answer16, slot))
    }
}

/// One tracker's version and observers as a value: arming against a version, disarming, what a
/// change fires — no threads, no locks.
@Suite struct TrackerStateTests {
    private func observer(_ phases: TrackingPhases, continuous: Bool = false) -> TrackingObserver {
        TrackingObserver(phases: phases, continuous: continuous) { _ in }
    }

    /// An observer that read the current version is armed; one that read an older version is not,
    /// unless continuous (armed anyway, and told it is stale).
    @Test func armingChecksTheVersionRead() {
        var tracker = TrackerState(version: 3)
        let current = observer(.didSet)
        let staleOneShot = observer(.didSet)
        let staleContinuous = observer(.didSet, continuous: true)
        let answer17 = tracker.arm(current, ifStillAt: 3)
        #expect(answer17)
        let answer18 = tracker.arm(staleOneShot, ifStillAt: 2)
        #expect(!answer18)
        let answer19 = tracker.arm(staleContinuous, ifStillAt: 2)
        #expect(!answer19)
        #expect(tracker.firstObserver === current)
        #expect(tracker.moreObservers.map { $0 === staleContinuous } == [true])
    }

    /// Disarming finds the observer inline or in the array, and hands it back once.
    @Test func disarmingHandsTheObserverBackOnce() {
        var tracker = TrackerState()
        let first = observer(.didSet)
        let second = observer(.didSet)
        _ = tracker.arm(first, ifStillAt: 0)
        _ = tracker.arm(second, ifStillAt: 0)
        let answer20 = tracker.disarm(second)
        #expect(answer20 === second)
        let answer21 = tracker.disarm(second)
        #expect(answer21 == nil)
        let answer22 = tracker.disarm(first)
        #expect(answer22 === first)
        #expect(!tracker.hasObservers)
    }

    /// A will-set leaves the version; a did-set moves it. Each fires the observers of its phase
    /// only; one-shots leave, continuous ones stay.
    @Test func aChangeFiresItsPhasesObservers() {
        var tracker = TrackerState()
        let willSet = observer(.willSet)
        let didSetOneShot = observer(.didSet)
        let didSetContinuous = observer(.didSet, continuous: true)
        for observer in [willSet, didSetOneShot, didSetContinuous] { _ = tracker.arm(observer, ifStillAt: 0) }
        let announced = tracker.changed(.willSet)
        #expect(announced.version == 0)
        #expect(announced.firing.first === willSet)
        #expect(announced.firing.more == nil)
        let stored = tracker.changed(.didSet)
        #expect(stored.version == 1)
        #expect(stored.firing.first == nil)
        #expect(stored.firing.more?.map { ObjectIdentifier($0) } == [ObjectIdentifier(didSetOneShot), ObjectIdentifier(didSetContinuous)])
        #expect(tracker.moreObservers.map { $0 === didSetContinuous } == [true])
        let answer23 = tracker.changed(.didSet)
        #expect(answer23.firing.more?.first === didSetContinuous)
    }

    /// Nobody armed: a change takes nothing.
    @Test func aChangeWithNobodyArmedTakesNothing() {
        var tracker = TrackerState()
        let answer24 = tracker.takeFiring(.didSet)
        #expect(answer24.isEmpty)
        let answer25 = tracker.stored()
        #expect(answer25 == 1)
    }
}

/// The Observation bridge's tracker state as a value: a change in the phase its scope counts moves
/// the version and keeps the key path (for an observer armed after it); the other phase fires its
/// observers and moves nothing.
@Suite struct ExternalTrackerStateTests {
    private func observer(_ phases: TrackingPhases) -> TrackingObserver {
        TrackingObserver(phases: phases, continuous: false) { _ in }
    }

    @Test func aDidSetCountingScopeCountsDidSetsOnly() {
        var state = ExternalTrackerState(tracker: TrackerState(version: 2), lastKeyPath: nil, countedPhase: .didSet)
        let willSet = observer(.willSet)
        _ = state.tracker.arm(willSet, ifStillAt: 2)
        let announced = state.changed(.willSet, keyPath: \String.count)
        #expect(announced.first === willSet)
        #expect(state.tracker.version == 2)
        #expect(state.lastKeyPath == nil)
        let stored = state.changed(.didSet, keyPath: \String.isEmpty)
        #expect(stored.isEmpty)
        #expect(state.tracker.version == 3)
        #expect(state.lastKeyPath == \String.isEmpty)
    }

    @Test func aWillSetOnlyScopeCountsWillSets() {
        var state = ExternalTrackerState(tracker: TrackerState(), lastKeyPath: nil, countedPhase: .willSet)
        let willSet = observer(.willSet)
        _ = state.tracker.arm(willSet, ifStillAt: 0)
        let announced = state.changed(.willSet, keyPath: \String.count)
        #expect(announced.first === willSet)
        #expect(state.tracker.version == 1)
        #expect(state.lastKeyPath == \String.count)
        #expect(!state.tracker.hasObservers)
    }
}

/// Whether `a` is `b` (an identity check outside `#expect`'s operator expansion).
private func same(_ a: AnyObject?, _ b: AnyObject) -> Bool {
    a.map { ObjectIdentifier($0) == ObjectIdentifier(b) } ?? false
}
