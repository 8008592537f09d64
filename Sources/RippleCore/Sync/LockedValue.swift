/// A value behind a ``Lock``: the one locked box of every module (process-wide tables, RippleUI's
/// links and marks, RippleObservation's tables, the tests' bookkeeping), for state that is one value
/// changed in short critical sections that call nothing out. An owner that runs a turn around user
/// code keeps its state in a ``TurnStorage`` instead.
///
/// An owner either stores a box (a public class, whose superclass cannot be `package`) or, to keep
/// the lock and the value inline in itself with no allocation of their own, subclasses it (as
/// operators subclass ``TurnStorage``): `final class AssignToPublished<…>: LockedValue<State>, …`.
///
/// Inlined into its users (one critical section costs what a hand-written `lock()`/`unlock()` does).
@usableFromInline
package class LockedValue<Value>: @unchecked Sendable {
    @usableFromInline final let lock = Lock()
    /// Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) final var value: Value

    /// A box holding `value`.
    @inlinable
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the lock held. `body` must not call user code (what leaves the value is
    /// released by the caller, after `withLock` returns).
    @inlinable
    package final func withLock<R, E: Error>(_ body: (inout Value) throws(E) -> R) throws(E) -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
