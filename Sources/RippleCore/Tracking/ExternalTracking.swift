#if !(canImport(Darwin) || RIPPLE_PORTABLE_ATOMICS)
import Synchronization  // AtomicCell is Synchronization.Atomic here (Sync/AtomicCell.swift)
#endif

/// Not API: the hook through which `RippleObservation` makes `@Published` properties visible to
/// Swift's Observation (`withObservationTracking`, `Observations`). The core cannot import
/// Observation, so the bridge module installs an implementation of this protocol.
///
/// `property` is the index of the `@Published` property in its class (stable per class).
public protocol _ExternalTrackingHook: AnyObject, Sendable {
    func access(_ object: AnyObject, property: Int)
    func willSet(_ object: AnyObject, property: Int)
    func didSet(_ object: AnyObject, property: Int)
}

/// Whether an external tracking hook is installed (``_ExternalTracking/isInstalled``). A global
/// rather than a static property: a global with a constant initializer is laid out statically,
/// where a static property is initialized lazily and every read pays a `swift_once` check.
@usableFromInline
let externalTrackingInstalled = AtomicCell<Bool>(false)

/// Whether a scope hook is installed (``_ExternalTracking/installScopeHook(_:)``); read by every
/// tracking scope. A global for the same reason as `externalTrackingInstalled`.
@usableFromInline
let externalScopeHookInstalled = AtomicCell<Bool>(false)

/// Whether a scope hook is installed (one relaxed load).
@inlinable @inline(__always)
package var externalScopeHookIsInstalled: Bool { externalScopeHookInstalled.load(ordering: .relaxed) }

/// Not API: installs the external tracking hook (see ``_ExternalTrackingHook``).
public enum _ExternalTracking {
    private static let installed = LockedValue<(any _ExternalTrackingHook)?>(nil)
    /// `true` once a hook is installed: `@Published` writes then take their slow path.
    @inlinable
    static var isInstalled: Bool { externalTrackingInstalled.load(ordering: .acquiring) }

    /// Installs `hook` (once; later calls keep the first hook). While a hook is installed every
    /// `@Published` read and write is reported to it, which costs the read its fast path.
    public static func install(_ hook: any _ExternalTrackingHook) {
        let first = installed.withLock { current -> Bool in
            guard current == nil else { return false }
            current = hook
            return true
        }
        guard first else { return }
        // Reads take the tracked branch from now on (it is where the hook is called).
        openTrackingScopes.add(1, ordering: .relaxed)
        externalTrackingInstalled.store(true, ordering: .releasing)
    }

    /// Installs `hook` as the way tracking scopes see another system's reads (once; later calls
    /// keep the first). See ``_ExternalScopeHook``.
    public static func installScopeHook(_ hook: any _ExternalScopeHook) {
        let first = scopeHookStorage.withLock { current -> Bool in
            guard current == nil else { return false }
            current = hook
            return true
        }
        guard first else { return }
        externalScopeHookInstalled.store(true, ordering: .releasing)
    }

    private static let scopeHookStorage = LockedValue<(any _ExternalScopeHook)?>(nil)

    /// The installed scope hook, if any: one atomic load when there is none.
    package static var scopeHook: (any _ExternalScopeHook)? {
        guard externalScopeHookInstalled.load(ordering: .acquiring) else { return nil }
        return scopeHookStorage.withLock { $0 }
    }

    /// Runs `body` and returns the properties of another observation system it read (the scope
    /// hook's ``_ExternalScopeHook/propertiesRead(_:)``); none when no scope hook is installed.
    package static func otherSystemsPropertiesRead(_ body: () -> Void) -> [String] {
        guard let hook = scopeHook else {
            body()
            return []
        }
        return hook.propertiesRead(body)
    }

    static var hook: (any _ExternalTrackingHook)? {
        guard isInstalled else { return nil }
        return installed.withLock { $0 }
    }
}
