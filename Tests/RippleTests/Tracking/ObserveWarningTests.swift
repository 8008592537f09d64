import Observation
@testable import Ripple
@testable import RippleCore
import RippleTesting
import Testing

/// An `@Observable` model: without the Observation bridge, Ripple's scopes cannot see its reads.
/// (This target never installs the bridge; other suites in the same test process may.)
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@Observable private final class Cart: @unchecked Sendable {
    var items = 0
}

private final class Counter: ObservableObject, @unchecked Sendable {
    @Published var value = 0
}

/// An observer whose first run reads nothing Ripple tracks never runs again; without the bridge,
/// that is what observing an `@Observable` model looks like, so Ripple says so (once per process,
/// on standard error) and names the fix.
@Suite(.serialized) struct ObserveWarningTests {
    /// Counted per thread: tests elsewhere in the run may raise it too.
    private var raised: Int { RuntimeWarning.observerReadNothing.raisedOnThisThread }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func observingAnObservableModelWithoutTheBridgeIsNamed() {
        let cart = Cart()
        let before = raised
        let runs = Locked(0)
        // The bridge is installed process-wide, and another suite may install it while this one
        // runs (it is never removed): look before and after.
        let installedBefore = externalScopeHookInstalled.load(ordering: .relaxed)
        let token = observe {
            _ = cart.items
            runs.withLock { $0 += 1 }
        }
        cart.items = 1
        let installedAfter = externalScopeHookInstalled.load(ordering: .relaxed)
        if installedBefore {
            // Another suite in this process installed the bridge: the read is seen, nothing to name.
            #expect(runs.current == 2)
            #expect(raised == before)
        } else if !installedAfter {
            #expect(runs.current == 1)  // what the warning is about: it never runs again
            #expect(raised == before + 1)
        }  // installed meanwhile: either answer is right
        #expect(RuntimeWarning.observerReadNothing.message.contains("ObservationBridge.install()"))
        token.cancel()
    }

    @Test func anObserverThatReadsATrackedPropertyIsNot() {
        let counter = Counter()
        let before = raised
        let token = observe { _ = counter.value }
        counter.value = 1
        #expect(raised == before)
        token.cancel()
    }
}

/// RippleTesting's `propertiesRead` over an `@Observable` model without the bridge: the answer is
/// empty, so Ripple names the fix (once per process) instead of letting the test pass or fail
/// without a hint.
@Suite(.serialized) struct PropertiesReadWarningTests {
    private var raised: Int { RuntimeWarning.propertiesReadSawNothing.raisedOnThisThread }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func anEmptyAnswerWithoutTheBridgeIsNamed() {
        let cart = Cart()
        let before = raised
        // The bridge is installed process-wide, and another suite may install it while this one
        // runs (it is never removed): look before and after the call.
        let installedBefore = externalScopeHookInstalled.load(ordering: .relaxed)
        let names = propertiesRead { _ = cart.items }
        let installedAfter = externalScopeHookInstalled.load(ordering: .relaxed)
        if installedBefore {
            #expect(names == ["Cart.items"])
            #expect(raised == before)
        } else if !installedAfter {
            #expect(names.isEmpty)
            #expect(raised == before + 1)
        }  // installed during the call: either answer is right
        #expect(RuntimeWarning.propertiesReadSawNothing.message.contains("ObservationBridge.install()"))
    }

    @Test func anAnswerWithReadsIsNot() {
        let counter = Counter()
        let before = raised
        #expect(propertiesRead { _ = counter.value } == ["Counter.value"])
        #expect(raised == before)
    }
}
