@testable import Ripple
import Testing

/// A registrar keeps one tracker per key path, whatever instance of the key path a caller passes:
/// a key path literal in a generic class (as `@State`'s storage has) is instantiated at each use,
/// a new instance each time.
@Suite struct RegistrarKeyPathTests {
    private final class Box<Value>: @unchecked Sendable {
        let registrar = TrackingRegistrar()
        private var stored: Value
        init(_ value: Value) { stored = value }
        var value: Value {
            get {
                registrar.access(self, keyPath: \.value)
                return stored
            }
            set { registrar.withMutation(of: self, keyPath: \.value) { stored = newValue } }
        }
        var keyPath: AnyKeyPath { \Box<Value>.value }
    }

    @Test func newInstancesOfOneKeyPathKeepOneEntry() throws {
        let box = Box(0)
        let first = box.keyPath
        let second = box.keyPath
        try #require(first !== second && first == second)
        // Reads are recorded (and trackers made) inside a tracking scope.
        let token = track({ for _ in 0..<100 { _ = box.value } }) { _ in }
        #expect(box.registrar.trackedKeyPathCount == 1)
        token.cancel()
    }

    @Test func theInstancesReachOneTracker() {
        let box = Box(0)
        let fired = Locked(0)
        let token = track({ _ = box.value }) { _ in fired.withLock { $0 += 1 } }
        _ = box.value
        box.value += 1
        #expect(fired.current == 1)
        token.cancel()
    }
}
