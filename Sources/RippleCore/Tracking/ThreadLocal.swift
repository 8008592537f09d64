#if !(canImport(Darwin) || RIPPLE_PORTABLE_ATOMICS)
import Synchronization  // AtomicCell is Synchronization.Atomic here (Sync/AtomicCell.swift)
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(WinSDK)
import WinSDK
#endif

/// How many tracking scopes are open on any thread. While it is zero — the common case — a
/// `@Published` read skips the thread-local lookup entirely (one relaxed load).
@usableFromInline
let openTrackingScopes = AtomicCell<Int>(0)

/// Whether any tracking scope is open on any thread (one relaxed load): a read outside every
/// scope records nothing.
@inlinable @inline(__always)
package var trackingScopesAreOpen: Bool { openTrackingScopes.load(ordering: .relaxed) != 0 }

/// A thread's tracking state, found with one thread-local lookup: the collector of its innermost
/// open scope, and a spare collector (buffer and all) kept for the next scope.
final class TrackingThread {
    /// The innermost open scope's collector, unretained: the scope that installs it keeps it alive.
    @exclusivity(unchecked) var current: Unmanaged<AccessCollector>?
    @exclusivity(unchecked) var spare: AccessCollector?

    /// The calling thread's state (created on first use, released when the thread exits),
    /// unretained: it lives as long as the thread.
    static var currentThread: Unmanaged<TrackingThread> {
        if let existing = getValue() {
            return Unmanaged.fromOpaque(existing)
        }
        let created = Unmanaged.passRetained(TrackingThread())
        setValue(created.toOpaque())
        return created
    }

    /// Runs `body` with the current scope's collector, without retaining anything.
    static func withCurrentCollector<R>(_ body: (AccessCollector?) -> R) -> R {
        guard let raw = getValue() else { return body(nil) }
        return Unmanaged<TrackingThread>.fromOpaque(raw)._withUnsafeGuaranteedRef { thread in
            guard let current = thread.current else { return body(nil) }
            return current._withUnsafeGuaranteedRef { body($0) }
        }
    }

    /// The current scope's collector, unretained (valid while the scope is open, which it is for
    /// the whole of a read made inside it).
    @inline(__always)
    static var currentCollector: Unmanaged<AccessCollector>? {
        guard let raw = getValue() else { return nil }
        return Unmanaged<TrackingThread>.fromOpaque(raw)._withUnsafeGuaranteedRef { $0.current }
    }

    /// The spare collector (now the caller's), or a new one.
    func takeSpare() -> AccessCollector {
        spare.take() ?? AccessCollector()
    }

    /// Keeps `collector` (emptied) for the next scope, unless there is a spare already.
    func putSpare(_ collector: AccessCollector) {
        if spare == nil { spare = collector }
    }

    #if canImport(WinSDK)
    private static let key: DWORD = FlsAlloc { raw in
        guard let raw else { return }
        Unmanaged<TrackingThread>.fromOpaque(raw).release()
    }
    private static func getValue() -> UnsafeMutableRawPointer? { FlsGetValue(key) }
    private static func setValue(_ value: UnsafeMutableRawPointer) { FlsSetValue(key, value) }
    #else
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { raw in
            guard let raw else { return }
            Unmanaged<TrackingThread>.fromOpaque(raw).release()
        }
        require(status == 0, "Ripple: pthread_key_create failed (\(status))")
        return key
    }()
    private static func getValue() -> UnsafeMutableRawPointer? { pthread_getspecific(key) }
    private static func setValue(_ value: UnsafeMutableRawPointer) { pthread_setspecific(key, value) }
    #endif
}

/// The main actor's thread, learned the first time main-actor-isolated code starts an `observe`
/// (the main actor runs on one thread, and that code runs synchronously on it). 0: not known yet.
private let mainActorThread = AtomicCell<UInt>(0)

/// Records the calling thread as the main actor's. Call only from main-actor-isolated code.
package func noteMainActorThread() {
    mainActorThread.store(currentThreadID(), ordering: .relaxed)
}

/// Whether the calling thread is the main actor's (known once ``noteMainActorThread()`` ran).
package func isOnMainActorThread() -> Bool {
    let main = mainActorThread.load(ordering: .relaxed)
    return main != 0 && main == currentThreadID()
}
