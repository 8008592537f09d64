#if !(canImport(Darwin) || RIPPLE_PORTABLE_ATOMICS)
import Synchronization  // AtomicCell is Synchronization.Atomic here (Sync/AtomicCell.swift)
#endif

/// A type-erasing cancellable object that runs a cancellation action when cancelled or deinitialized.
///
/// The action runs at most once, whether through ``cancel()``, a second `cancel()` from another
/// thread, or `deinit`. Instances are equal only to themselves.
///
/// ```swift
/// var bag = Set<AnyCancellable>()
/// AnyCancellable { print("cancelled") }.store(in: &bag)
/// bag.removeAll()
/// // Prints "cancelled"
/// ```
public final class AnyCancellable: Cancellable, Hashable, @unchecked Sendable {
    /// What cancelling does. Written once at init, read and cleared only by the thread that wins `fired`
    /// — except `base`, which is never cleared (see `isBase`).
    private enum Action {
        case closure(() -> Void)
        case object(any Cancellable & AnyObject)
        /// One of Ripple's own subscriptions, retained by hand (`init(base:)`, released in
        /// `deinit`): cancelled with a plain virtual call (no witness table or generic metadata to
        /// look up) and no retain or release around it.
        case base(Unmanaged<CancellableObject>)
        case nothing
    }

    /// Read and cleared only by the thread that wins `fired` — unless `isBase`: then only read.
    @exclusivity(unchecked) private var action: Action
    private let fired = AtomicCell<Bool>(false)
    /// `action` is `.base`: a subscription of Ripple's own, whose `cancel()` is idempotent and
    /// thread-safe by itself. Cancelling calls it without claiming `fired` (an atomic
    /// read-modify-write) or moving it out, and it is released with this object; what it holds of
    /// the user's (subscriber, closures) it releases when cancelled.
    private let isBase: Bool

    /// Creates a cancellable object with the given cancellation closure.
    public init(_ cancel: @escaping () -> Void) {
        action = .closure(cancel)
        isBase = false
    }

    /// Creates a cancellable object that forwards cancellation to `canceller`.
    public init<C: Cancellable>(_ canceller: C) {
        if let object = canceller as? AnyCancellable {
            // Wrapping an AnyCancellable forwards to it rather than nesting closures.
            action = .object(object)
        } else {
            action = .closure(canceller.cancel)
        }
        isBase = false
    }

    /// Creates a cancellable that forwards to a class instance without allocating a closure.
    @usableFromInline
    init(object: some Cancellable & AnyObject) {
        action = .object(object)
        isBase = false
    }

    /// Creates a cancellable for one of Ripple's own subscriptions.
    @usableFromInline
    init(base: CancellableObject) {
        action = .base(Unmanaged.passRetained(base))
        isBase = true
    }

    deinit {
        cancel()
        if case .base(let base) = action { base.release() }
    }

    /// Cancels the activity: runs the action once and releases it.
    public func cancel() {
        // Already cancelled (the usual case in `deinit` after an explicit cancel): a load, not an
        // atomic read-modify-write.
        guard !fired.load(ordering: .acquiring) else { return }
        if isBase, case .base(let base) = action {
            fired.store(true, ordering: .relaxed)
            base._withUnsafeGuaranteedRef { $0.cancel() }
            return
        }
        guard !fired.exchange(true, ordering: .acquiringAndReleasing) else { return }
        #if RIPPLE_EXPLORER
        explorerHooks?.claimed(ObjectIdentifier(self), "AnyCancellable.fired")
        #endif
        // Moved out, not copied: no retain and release of what it holds.
        var action = Action.nothing
        swap(&action, &self.action)
        switch action {
        case .closure(let body): body()
        case .object(let object): object.cancel()
        case .base(let base): base._withUnsafeGuaranteedRef { $0.cancel() }  // not reached: see `isBase`
        case .nothing: break
        }
    }

    /// Stores this object in the given collection.
    public func store<C: RangeReplaceableCollection>(in collection: inout C) where C.Element == AnyCancellable {
        collection.append(self)
    }

    /// Stores this object in the given set.
    public func store(in set: inout Set<AnyCancellable>) {
        set.insert(self)
    }

    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool {
        lhs === rhs
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
