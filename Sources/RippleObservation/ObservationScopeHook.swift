@_spi(SwiftUI) import Observation
import Ripple
import Foundation
import RippleCore  // LockedValue

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(WinSDK)
import WinSDK
#endif

/// Lets Ripple's tracking scopes see reads of `@Observable` models.
///
/// Each scope runs its body inside Observation's `withObservationTracking` (the `@_spi(SwiftUI)`
/// forms SwiftUI itself uses): Observation records what the body read and, when the body returns,
/// installs one callback on exactly those properties, in the phase the scope's observer fires in
/// (will-set for a render tree's bodies and `withTracking(phase: .willSet)`, did-set for `observe`
/// and the did-set default; both only where the phase is not known), which forwards each change —
/// with its key path — to the scope's ``_ExternalReads`` handle. That callback stays until the
/// `ObservationTracking` it belongs to is cancelled, which Ripple does when no observer needs the
/// scope's reads any more (a body evaluated again, a node removed).
///
/// Observation hands that `ObservationTracking` only to the callbacks, so the scope keeps the one
/// the first change brings, and also reads one property of a private handle object: if no change
/// came by the time Ripple cancels the scope, it "changes" the handle, synchronously, and the
/// callback this runs hands over the value to cancel (the handshake). Done only then, since a
/// scope is usually cancelled after a change of what it read (a view re-evaluated because its
/// model changed), which costs nothing extra. The handle lives until the cancel, so its going away
/// never looks like a change. (Without the handle, a scope cancelled before any change would stay
/// registered with its model until the model changed: Observation gives no other way to the
/// `ObservationTracking`.)
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
final class ObservationScopeHook: _ExternalScopeHook {
    func collectReads<R>(reporting phase: TrackingPhase?, _ body: () -> R) -> (R, _ExternalReads?) {
        let handle = ScopeHandle.pool.take()
        let reads = _ExternalReads(reporting: phase)
        let handshake = Handshake()
        let apply = { () -> R in
            handle.read()
            return body()
        }
        // One callback per property read, in the phase the scope's observer needs (a render tree's
        // re-evaluation wants will-set, as SwiftUI's; `observe` wants did-set): half of what
        // registering for both costs, on the model's registrar and the handle's.
        let result: R
        switch phase {
        case .willSet?:
            result = withObservationTracking(
                apply,
                willSet: { tracking in
                    if handshake.accept(tracking) { return }
                    reads._changed(.willSet, keyPath: userKeyPath(changedKeyPath(tracking)))
                })
        case .didSet?:
            result = withObservationTracking(
                apply,
                didSet: { tracking in
                    if handshake.accept(tracking) { return }
                    reads._changed(.didSet, keyPath: userKeyPath(changedKeyPath(tracking)))
                })
        case nil:
            result = withObservationTracking(
                apply,
                willSet: { tracking in
                    if handshake.accept(tracking) { return }
                    reads._changed(.willSet, keyPath: userKeyPath(changedKeyPath(tracking)))
                },
                didSet: { tracking in
                    // The handshake announces will-set only; a did-set is always a real change.
                    _ = handshake.accept(tracking)
                    reads._changed(.didSet, keyPath: userKeyPath(changedKeyPath(tracking)))
                })
        }
        let announced = phase ?? .willSet
        reads._registered(cancel: {
            // Any change since has handed the callbacks their `ObservationTracking`; if none came,
            // changing the handle does (the handshake). Observation installed the tracking on the
            // handle at least (it was read), so one of the two always finds it.
            guard let tracking = handshake.received ?? handshake.perform(with: handle, phase: announced) else {
                // Not expected (the handle was read). The handle may still be registered: it is not
                // reused, and kept alive, since one that went away while registered would look like a
                // change.
                ScopeHandle.pool.retire(handle)
                return
            }
            tracking.cancel()
            // Registered with nothing now: the next scope may use it (its registrar keeps the
            // storage it grew, which is most of what registering costs).
            ScopeHandle.pool.give(handle)
        })
        return (result, reads)
    }

    func propertyName(of keyPath: AnyKeyPath) -> String? {
        PropertyNames.name(of: keyPath)
    }

    /// Observation says which properties were read only to itself: its tracking value holds them
    /// (an access list of key paths per object), handed over here by the handshake and read
    /// through `Mirror`. If a future Observation lays that value out differently, the answer is
    /// empty (RippleTesting's tests show it on this toolchain), never wrong.
    func propertiesRead(_ body: () -> Void) -> [String] {
        let handle = ScopeHandle.pool.take()
        let handshake = Handshake()
        withObservationTracking(
            {
                handle.read()
                body()
            },
            willSet: { tracking in _ = handshake.accept(tracking) })
        guard let tracking = handshake.received ?? handshake.perform(with: handle) else {
            ScopeHandle.pool.retire(handle)
            return []
        }
        tracking.cancel()
        ScopeHandle.pool.give(handle)
        return keyPathsRead(in: tracking)
            .filter { type(of: $0).rootType != ScopeHandle.self }
            .map { "\(type(of: $0).rootType).\(PropertyNames.name(of: $0) ?? "?")" }
            .sorted()
    }
}

/// The key paths an `ObservationTracking` holds: `list.entries[object].properties` in
/// Observation's layout, found by label.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
private func keyPathsRead(in tracking: ObservationTracking) -> [AnyKeyPath] {
    func child(_ label: String, of value: Any) -> Any? {
        Mirror(reflecting: value).children.first { $0.label == label }?.value
    }
    guard let list = child("list", of: tracking), let entries = child("entries", of: list) else { return [] }
    var keyPaths: [AnyKeyPath] = []
    for entry in Mirror(reflecting: entries).children {
        // A dictionary's children are (key, value) pairs.
        guard let value = child("value", of: entry.value) ?? Mirror(reflecting: entry.value).children.dropFirst().first?.value,
            let properties = child("properties", of: value) as? Set<AnyKeyPath>
        else { continue }
        keyPaths.append(contentsOf: properties)
    }
    return keyPaths
}

/// Free ``ScopeHandle``s, at most ``capacity`` of them (enough for the scopes a render pass
/// cancels and re-creates one after another; a burst beyond it allocates).
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
private final class ScopeHandlePool: @unchecked Sendable {
    private static let capacity = 256
    private struct Handles {
        var free: [ScopeHandle] = []
        /// Handles whose cancel found no tracking: kept alive, never reused.
        var retired: [ScopeHandle] = []
    }

    private let handles = LockedValue(Handles())

    func take() -> ScopeHandle {
        handles.withLock { $0.free.popLast() } ?? ScopeHandle()
    }

    func give(_ handle: ScopeHandle) {
        // A handle beyond capacity is released after unlocking (its deinit runs Observation's code).
        let kept = handles.withLock { handles -> Bool in
            guard handles.free.count < Self.capacity else { return false }
            handles.free.append(handle)
            return true
        }
        if !kept { withExtendedLifetime(handle) {} }
    }

    func retire(_ handle: ScopeHandle) {
        handles.withLock { $0.retired.append(handle) }
    }
}

/// The key path of the change `tracking`'s callback reports: Observation says which one from
/// macOS 15 / iOS 18 on; before, `nil` (the event names no property).
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
private func changedKeyPath(_ tracking: ObservationTracking) -> AnyKeyPath? {
    guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return nil }
    return tracking.changed
}

/// The key path of a change, unless it is the handle's (a change racing the handshake can read
/// the handshake's key path from the shared `ObservationTracking`; it then names no property).
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
private func userKeyPath(_ keyPath: AnyKeyPath?) -> AnyKeyPath? {
    guard let keyPath, type(of: keyPath).rootType != ScopeHandle.self else { return nil }
    return keyPath
}

/// A private observable object each scope reads once, so that it can "change" it when cancelled
/// and receive the scope's `ObservationTracking` in the will-set callback.
///
/// Handles are reused: one whose scope was cancelled is registered with nothing, and its
/// registrar's storage has already grown to hold one scope's callbacks.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
private final class ScopeHandle: Observable, @unchecked Sendable {
    /// Handles whose scope was cancelled, ready for the next scope.
    static let pool = ScopeHandlePool()

    private let registrar = ObservationRegistrar()
    /// Stored: a stored property's key path hashes in fewer instructions than a computed one's, and
    /// Observation hashes it at every read, registration and cancel.
    private let token = 0

    func read() {
        registrar.access(self, keyPath: \.token)
    }

    /// Announces a change of the handle in `phase` (the phase its scope registered for).
    func announceChange(_ phase: TrackingPhase) {
        switch phase {
        case .willSet: registrar.willSet(self, keyPath: \.token)
        case .didSet: registrar.didSet(self, keyPath: \.token)
        }
    }
}

/// The handshake's state: which thread is performing it, and the tracking it received.
///
/// A will-set callback is the handshake's exactly when it runs on the handshaking thread while
/// ``perform(with:)`` is announcing (it is synchronous, and no other change can run a callback on
/// that thread meanwhile); a change on another thread at the same moment is forwarded as usual.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
private final class Handshake: @unchecked Sendable {
    private struct State {
        var thread: ThreadIdentity?
        var tracking: ObservationTracking?
    }

    private let state = LockedValue(State())

    /// Keeps `tracking` (from any change's will-set callback), and says whether the callback is the
    /// handshake's own (which reports no change).
    func accept(_ tracking: ObservationTracking) -> Bool {
        let me = ThreadIdentity.current
        return state.withLock { state in
            if state.tracking == nil { state.tracking = tracking }
            guard let thread = state.thread, thread == me else { return false }
            return true
        }
    }

    /// The tracking a change has handed over already, if any.
    var received: ObservationTracking? {
        state.withLock { $0.tracking }
    }

    /// Changes `handle`, in `phase`, so that its callback hands over the tracking.
    func perform(with handle: ScopeHandle, phase: TrackingPhase = .willSet) -> ObservationTracking? {
        state.withLock { $0.thread = ThreadIdentity.current }
        handle.announceChange(phase)
        return state.withLock { state in
            state.thread = nil
            return state.tracking
        }
    }
}

/// The calling thread, comparable.
private struct ThreadIdentity: Equatable {
    #if canImport(WinSDK)
    let id: DWORD
    static var current: ThreadIdentity { ThreadIdentity(id: GetCurrentThreadId()) }
    #else
    let id: pthread_t
    static var current: ThreadIdentity { ThreadIdentity(id: pthread_self()) }
    static func == (lhs: ThreadIdentity, rhs: ThreadIdentity) -> Bool { pthread_equal(lhs.id, rhs.id) != 0 }
    #endif
}
