/// A value behind a ``Lock``, for state that has no owner object of its own (process-wide tables).
package final class LockedValue<Value>: @unchecked Sendable {
    private let lock = Lock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the lock held. `body` must not call user code.
    package func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
