#if !(canImport(Darwin) || RIPPLE_PORTABLE_ATOMICS)
import Synchronization  // AtomicCell is Synchronization.Atomic here (Sync/AtomicCell.swift)
#endif
import RippleTrackingTypes  // TrackingEvent, TrackingPhase (not re-exported: Ripple's, not Combine's)

/// Not API: lets another observation system take part in Ripple's tracking scopes. The core cannot
/// import the toolchain's Observation module, so `RippleObservation` installs an implementation
/// (see ``_ExternalTracking/installScopeHook(_:)``): every tracking scope then runs its body through
/// ``collectReads(_:)``, and what the other system saw read becomes one entry of the scope.
public protocol _ExternalScopeHook: AnyObject, Sendable {
    /// Runs `body` with the other system recording reads, and returns the reads as one handle
    /// (`nil` when `body` read nothing the other system tracks). The other system reports later
    /// changes of those reads to the handle, in `phase` only (both phases when `nil`: the scope's
    /// observer is not known yet), until the handle's `cancel` closure runs.
    func collectReads<R>(reporting phase: TrackingPhase?, _ body: () -> R) -> (R, _ExternalReads?)

    /// The name of the property a changed key path ends in, where the other system's key paths
    /// print none (an `@Observable` property's is computed), or `nil`.
    func propertyName(of keyPath: AnyKeyPath) -> String?

    /// Runs `body` and returns the properties of the other system it read, as `"Type.property"`
    /// names, sorted (the other system records reads as a set).
    func propertiesRead(_ body: () -> Void) -> [String]
}

/// Not API: the reads another observation system saw in one tracking scope, as the scope's bridge
/// reports their changes to Ripple.
///
/// The bridge keeps this handle (and only this handle) in its change callbacks; Ripple keeps the
/// tracker behind it while any observer is armed on it, and runs `cancel` when it is released, so
/// the other system's registration lives exactly as long as Ripple needs it.
public final class _ExternalReads: @unchecked Sendable {
    private struct State {
        /// Changes reported before the scope took the handle over (after the reads, before the scope ended).
        var early: UInt64 = 0
        var earlyKeyPath: AnyKeyPath?
        /// Weak: the tracker's lifetime is decided by Ripple's observers, not by the other system.
        weak var tracker: ExternalTracker?
        /// How to undo the other system's registration (set by ``_registered(cancel:)``).
        var cancel: (@Sendable () -> Void)?
        /// The phase whose changes count (bump the tracker's version): the did-set phase when the
        /// other system reports it, else the will-set phase (a scope registered for will-set only).
        let countedPhase: TrackingPhase

        /// The scope takes the handle over: the tracker it records, starting at the early changes.
        /// (Making the tracker calls no user code.)
        mutating func activate() -> ExternalTracker {
            let tracker = ExternalTracker(
                state: ExternalTrackerState(
                    tracker: TrackerState(version: early), lastKeyPath: earlyKeyPath, countedPhase: countedPhase),
                cancel: cancel.take() ?? {})
            self.tracker = tracker
            return tracker
        }

        /// A change in `phase`: the tracker to tell, or `nil` once counted as an early change.
        mutating func changed(_ phase: TrackingPhase, keyPath: AnyKeyPath?) -> ExternalTracker? {
            if let tracker { return tracker }
            if phase == countedPhase {
                early &+= 1
                earlyKeyPath = keyPath
            }
            return nil
        }
    }

    private let state: LockedValue<State>

    /// Creates an empty handle, before the reads, for changes reported in `phase` (both when `nil`).
    public init(reporting phase: TrackingPhase? = nil) {
        state = LockedValue(State(countedPhase: phase ?? .didSet))
    }

    /// Called by the bridge once the reads are registered with the other system: `cancel` undoes
    /// that registration, and runs once Ripple no longer needs it.
    public func _registered(cancel: @escaping @Sendable () -> Void) {
        // A closure replaced is released after unlocking.
        let replaced = state.withLock { state in
            defer { state.cancel = cancel }
            return state.cancel
        }
        _ = replaced
    }

    /// The tracker the scope records (taking over the `cancel` closure).
    func activate() -> ExternalTracker {
        state.withLock { $0.activate() }
    }

    /// Reports a change, in `phase`, to the property at `keyPath` (when the other system says which).
    public func _changed(_ phase: TrackingPhase, keyPath: AnyKeyPath?) {
        state.withLock { $0.changed(phase, keyPath: keyPath) }?.changed(phase, keyPath: keyPath)
    }
}

/// What an ``ExternalTracker`` keeps under its lock: the tracker's version and observers, and the
/// key path of the latest counted change (for an observer armed after it).
struct ExternalTrackerState: TrackerStateHolder {
    var tracker: TrackerState
    var lastKeyPath: AnyKeyPath?
    /// The phase whose changes bump the version (did-set, unless the scope registered will-set only).
    let countedPhase: TrackingPhase

    /// The other system reports a change in `phase` (one in the counted phase is a store): the
    /// observers to fire.
    mutating func changed(_ phase: TrackingPhase, keyPath: AnyKeyPath?) -> FiringList {
        if phase == countedPhase {
            tracker.version &+= 1
            lastKeyPath = keyPath
        }
        return tracker.takeFiring(phase)
    }
}

/// The tracker standing for everything another observation system saw read in one scope: armed like
/// a `@Published` property's, fired with the changed property's key path. Its version starts at the
/// changes reported before the scope ended, so a change between a read and the arming is not lost.
final class ExternalTracker: TrackerStorage<ExternalTrackerState>, @unchecked Sendable {
    private let cancel: @Sendable () -> Void

    init(state: ExternalTrackerState, cancel: @escaping @Sendable () -> Void) {
        self.cancel = cancel
        super.init(state: state)
    }

    deinit {
        cancel()
    }

    func changed(_ phase: TrackingPhase, keyPath: AnyKeyPath?) {
        lock.lock()
        let firing = state.changed(phase, keyPath: keyPath)
        lock.unlock()
        guard !firing.isEmpty else { return }
        fire(firing, TrackingEvent(object: nil, tracker: self, phase: phase, keyPath: keyPath))
    }

    /// The did-set event for an observer that finds this tracker changed when it arms.
    var staleEvent: TrackingEvent {
        lock.lock()
        let keyPath = state.lastKeyPath
        lock.unlock()
        return TrackingEvent(object: nil, tracker: self, phase: .didSet, keyPath: keyPath)
    }
}
