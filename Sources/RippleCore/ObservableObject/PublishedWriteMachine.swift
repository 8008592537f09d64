/// The writes of one `@Published` property that somebody observes, as a value: which writes wait
/// for each other, and whether a write stores its value once its callouts have run. Kept by the
/// property's `PublishedObservation` under its lock; the box's `setObserved` applies a transition
/// under that lock and performs what it returns after unlocking, as every owner of a
/// ``DeliveryTurn`` does.
///
/// The rule it keeps: the order in which `$property`'s subscribers receive values is the order in
/// which the values are stored, so the property and `$property`'s current value never disagree.
/// - Once the property has a `$property`, a write takes the write turn for the length of its
///   callouts and its store: concurrent writers wait for each other, in arrival order.
/// - A write from inside this thread's own write (a `$property` subscriber that assigns the
///   property) runs at once, nested, and stores when its callouts end — before the outer write,
///   which then stores over it, as in Combine, where `@Published` publishes in `willSet` and
///   stores after: the property ends with the outer write's value. `$property`'s current value is
///   then set back to that value (its subscribers were sent it before the nested one), so a new
///   subscriber starts from what the property holds.
/// - Without a `$property` there is nothing to keep in step: a write takes no turn and always
///   stores — unless a `$property` was made while its callouts ran. That subject started from the
///   value before this write, and this write's value never went through it: the write then starts
///   over as an ordered one (taking the turn, sending its value to `$property`, storing), without
///   announcing itself again.
@usableFromInline
struct PublishedWriteMachine {
    /// Who is writing with `$property` subscribers to keep in step, and who waits to.
    @usableFromInline var turn = DeliveryTurn()

    /// How a write takes part in the order of writes.
    @usableFromInline
    enum Role: Equatable {
        /// There was no `$property` when it began: no turn.
        case unordered
        /// It holds the turn.
        case ordered
        /// It runs inside this thread's ordered write, which holds the turn.
        case nested
    }

    /// How a write begins.
    @usableFromInline
    enum Begin {
        /// Write now, in this role.
        case write(Role)
        /// Sleep until this waiter is handed the turn, then write as ``Role/ordered``.
        case wait(TurnWaiter)
    }

    /// How a write ends, once its callouts have run.
    @usableFromInline
    enum End: Equatable {
        /// Store the value, then perform the exit (wake the next writer, if any).
        case store(DeliveryTurn.Exit)
        /// A nested write stored meanwhile: store over it, make this value `$property`'s current
        /// value again (without sending it), then perform the exit.
        case storeOverNested(DeliveryTurn.Exit)
        /// A `$property` was made meanwhile: begin again as an ordered write.
        case startOver
    }

    @inlinable
    init() {}

    /// A write begins on `thread`; `ordered`: the property has a `$property`. `name` names the
    /// property in a deadlock report.
    @inlinable @inline(__always)
    mutating func begin(thread: UInt, ordered: Bool, name: @autoclosure () -> String) -> Begin {
        if turn.owner == thread { return .write(.nested) }
        guard ordered else { return .write(.unordered) }
        switch turn.enter(thread, name: name()) {
        case .call: return .write(.ordered)
        case .wait(let waiter): return .wait(waiter)
        }
    }

    /// A write in `role` has run its callouts. `unchanged`: nothing was stored since it began;
    /// `ordered`: the property has a `$property` now.
    @inlinable @inline(__always)
    mutating func end(_ role: Role, unchanged: Bool, ordered: Bool) -> End {
        switch role {
        case .unordered:
            return ordered ? .startOver : .store(.idle)
        case .nested:
            return unchanged ? .store(.idle) : .storeOverNested(.idle)
        case .ordered:
            let exit = turn.leave()
            return unchanged ? .store(exit) : .storeOverNested(exit)
        }
    }
}
