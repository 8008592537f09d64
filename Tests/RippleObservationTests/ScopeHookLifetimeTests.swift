import Observation
@testable import Ripple
@testable import RippleCore
@testable import RippleObservation
import Testing

@Observable private final class Shelf {
    var books = 0
}

/// A scope's registration with Observation ends when Ripple lets go of the scope, whether or not
/// anything it read changed first: the callbacks (which hold the scope's reads) are released.
@Suite struct ScopeHookLifetimeTests {
    /// Runs a scope over `shelf`, optionally changes what it read, then releases the scope's
    /// tracker; returns the scope's reads, weakly.
    private func releasedScope(over shelf: Shelf, changingFirst: Bool) -> _ExternalReads? {
        weak var weakReads: _ExternalReads?
        do {
            let (_, reads) = ObservationScopeHook().collectReads { shelf.books }
            weakReads = reads
            var tracker: ExternalTracker? = reads?.activate()
            if changingFirst { shelf.books += 1 }
            #expect(tracker != nil)
            tracker = nil
        }
        return weakReads
    }

    @Test func aScopeReleasedBeforeAnyChangeUnregisters() {
        let shelf = Shelf()
        #expect(releasedScope(over: shelf, changingFirst: false) == nil)
        // Nothing left to call: a later change reaches no released scope.
        shelf.books += 1
    }

    @Test func aScopeReleasedAfterAChangeUnregisters() {
        let shelf = Shelf()
        #expect(releasedScope(over: shelf, changingFirst: true) == nil)
        shelf.books += 1
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
        let (_, reads) = ObservationScopeHook().collectReads { second.books }
        let tracker = reads?.activate()
        let before = tracker?.version
        first.books += 1
        #expect(tracker?.version == before)
        second.books += 1
        #expect(tracker?.version == before.map { $0 &+ 1 })
        withExtendedLifetime(tracker) {}
    }
}

