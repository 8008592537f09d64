import Foundation

/// A value guarded by an `NSLock`: the module's replacement for `Synchronization.Mutex`, which
/// needs macOS 15 / iOS 18 on Apple platforms. An `NSLock` is a pthread mutex, so ThreadSanitizer
/// sees it too. Shared with RippleUI (package access).
package final class Locked<State>: @unchecked Sendable {
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var state: State

    /// Creates the box holding `state`.
    package init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with the state, the lock held. `body` must not call user code.
    package func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
