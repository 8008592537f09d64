import Observation
@testable import Ripple
@testable import RippleCore
@testable import RippleObservation
import Testing

@Observable private final class Shelf {
    var books = 0
}

/// A model announcing its will-set and did-set separately, to see which one a scope hears.
private final class Gauge: Observable, @unchecked Sendable {
    private let registrar = ObservationRegistrar()
    var level: Int {
        registrar.access(self, keyPath: \.level)
        return 0
    }
    func announceWillSet() { registrar.willSet(self, keyPath: \.level) }
    func announceDidSet() { registrar.didSet(self, keyPath: \.level) }
}

/// The phases a scope can register for (`nil`: both).
private let scopePhases: [TrackingPhase?] = [nil, .willSet, .didSet]

/// A scope's registration with Observation ends when Ripple lets go of the scope, whether or not
/// anything it read changed first: the callbacks (which hold the scope's reads) are released.
@Suite struct ScopeHookLifetimeTests {
    /// Runs a scope over `shelf`, optionally changes what it read, then releases the scope's
    /// tracker; returns the scope's reads, weakly.
    private func releasedScope(over shelf: Shelf, changingFirst: Bool, phase: TrackingPhase? = nil) -> _ExternalReads? {
        weak var weakReads: _ExternalReads?
        do {
            let (_, reads) = ObservationScopeHook().collectReads(reporting: phase) { shelf.books }
            weakReads = reads
            var tracker: ExternalTracker? = reads?.activate()
            if changingFirst { shelf.books += 1 }
            #expect(tracker != nil)
            tracker = nil
        }
        return weakReads
    }

    @Test(arguments: scopePhases)
    func aScopeReleasedBeforeAnyChangeUnregisters(phase: TrackingPhase?) {
        let shelf = Shelf()
        #expect(releasedScope(over: shelf, changingFirst: false, phase: phase) == nil)
        // Nothing left to call: a later change reaches no released scope.
        shelf.books += 1
    }

    @Test(arguments: scopePhases)
    func aScopeReleasedAfterAChangeUnregisters(phase: TrackingPhase?) {
        let shelf = Shelf()
        #expect(releasedScope(over: shelf, changingFirst: true, phase: phase) == nil)
        shelf.books += 1
    }

    /// A scope registers one callback per property read, in its observer's phase: a will-set
    /// scope counts the change at will-set and hears no did-set, a did-set scope the reverse; one
    /// whose phase is not known hears both and counts at did-set.
    @Test(arguments: scopePhases)
    func aScopeHearsTheChangesOfItsPhaseOnly(phase: TrackingPhase?) {
        let gauge = Gauge()
        let (_, reads) = ObservationScopeHook().collectReads(reporting: phase) { gauge.level }
        let tracker = reads?.activate()
        #expect(tracker?.version == 0)
        gauge.announceWillSet()
        #expect(tracker?.version == (phase == .willSet ? 1 : 0))
        gauge.announceDidSet()
        #expect(tracker?.version == 1)
        withExtendedLifetime(tracker) {}
    }

    /// Scopes reuse the private handle a cancelled scope leaves behind: what the earlier scope
    /// read must not reach the later one, in either order of cancelling.
    @Test(arguments: [false, true])
    func aLaterScopeSeesOnlyItsOwnReads(changingFirst: Bool) {
        let first = Shelf()
        let second = Shelf()
        for _ in 0..<3 {
            #expect(releasedScope(over: first, changingFirst: changingFirst) == nil)
        }
        let (_, reads) = ObservationScopeHook().collectReads(reporting: nil) { second.books }
        let tracker = reads?.activate()
        let before = tracker?.version
        first.books += 1
        #expect(tracker?.version == before)
        second.books += 1
        #expect(tracker?.version == before.map { $0 &+ 1 })
        withExtendedLifetime(tracker) {}
    }
}

