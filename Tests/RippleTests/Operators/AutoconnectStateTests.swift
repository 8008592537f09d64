@testable import RippleCore
import Testing

/// `autoconnect()`'s state as a value, row by row: who connects, and which connection to cancel
/// when the last subscriber leaves — no threads, no locks, no publishers.
@Suite struct AutoconnectStateTests {
    /// A connection (the transitions never cancel it: they hand it back).
    private final class Connection: Cancellable {
        func cancel() {}
    }

    @Test func theFirstSubscriberConnectsAndOnlyOnce() {
        var state = AutoconnectState()
        state.subscribers += 1
        let connects = state.subscribed()
        #expect(connects)
        state.subscribers += 1
        let connectsAgain = state.subscribed()
        #expect(!connectsAgain)  // another thread is connecting
        #expect(state.connected(Connection()) == nil)
        state.subscribers += 1
        let connectsOnceConnected = state.subscribed()
        #expect(!connectsOnceConnected)
    }

    @Test func theLastSubscriberLeavingHandsBackTheConnectionOnce() {
        var state = AutoconnectState()
        let connection = Connection()
        state.subscribers = 2
        _ = state.subscribed()
        _ = state.connected(connection)
        #expect(state.released() == nil)
        #expect(same(state.released(), connection))
        #expect(state.connection == nil)
    }

    /// A synchronous upstream completes inside `connect()`: everyone left before it returned, so the
    /// connection it returns is handed back to be cancelled, not kept.
    @Test func aConnectionReturnedAfterEveryoneLeftIsHandedBack() {
        var state = AutoconnectState()
        state.subscribers = 1
        _ = state.subscribed()
        #expect(state.released() == nil)  // nothing to cancel yet: connect() has not returned
        let connection = Connection()
        #expect(same(state.connected(connection), connection))
        #expect(state.connection == nil)
        #expect(!state.connecting)
    }
}

/// Whether `a` is the connection `b` (`===` needs class-constrained operands).
private func same(_ a: (any Cancellable)?, _ b: AnyObject) -> Bool {
    guard let a else { return false }
    return (a as AnyObject) === b
}
