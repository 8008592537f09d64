import Synchronization

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
let openTrackingScopes = Atomic<Int>(0)

/// The access collector of the innermost tracking scope on the current thread.
enum ThreadLocalCollector {
    #if canImport(WinSDK)
    private static let key: DWORD = TlsAlloc()
    #else
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "Ripple: pthread_key_create failed (\(status))")
        return key
    }()
    #endif

    #if canImport(WinSDK)
    private static let spareKey: DWORD = TlsAlloc()
    #else
    /// A spare collector per thread (retained), reused by the next scope; released at thread exit.
    private static let spareKey: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { raw in
            guard let raw else { return }
            Unmanaged<AccessCollector>.fromOpaque(raw).release()
        }
        precondition(status == 0, "Ripple: pthread_key_create failed (\(status))")
        return key
    }()
    #endif

    /// The thread's spare collector (now the caller's), or a new one.
    static func takeSpare() -> AccessCollector {
        #if canImport(WinSDK)
        return AccessCollector()
        #else
        guard let raw = pthread_getspecific(spareKey) else { return AccessCollector() }
        pthread_setspecific(spareKey, nil)
        return Unmanaged<AccessCollector>.fromOpaque(raw).takeRetainedValue()
        #endif
    }

    /// Keeps `collector` (emptied) for the thread's next scope, if the thread has no spare yet.
    static func putSpare(_ collector: AccessCollector) {
        #if !canImport(WinSDK)
        guard pthread_getspecific(spareKey) == nil else { return }
        pthread_setspecific(spareKey, Unmanaged.passRetained(collector).toOpaque())
        #endif
    }

    /// Runs `body` with the current collector, without retaining it (its scope keeps it alive).
    static func withCurrent<R>(_ body: (AccessCollector?) -> R) -> R {
        #if canImport(WinSDK)
        guard let raw = TlsGetValue(key) else { return body(nil) }
        #else
        guard let raw = pthread_getspecific(key) else { return body(nil) }
        #endif
        return Unmanaged<AccessCollector>.fromOpaque(raw)._withUnsafeGuaranteedRef { body($0) }
    }

    static var current: AccessCollector? {
        get {
            #if canImport(WinSDK)
            guard let raw = TlsGetValue(key) else { return nil }
            #else
            guard let raw = pthread_getspecific(key) else { return nil }
            #endif
            return Unmanaged<AccessCollector>.fromOpaque(raw).takeUnretainedValue()
        }
        set {
            // The scope that installs a collector keeps it alive until it uninstalls it.
            let raw = newValue.map { UnsafeMutableRawPointer(Unmanaged.passUnretained($0).toOpaque()) }
            #if canImport(WinSDK)
            TlsSetValue(key, raw)
            #else
            pthread_setspecific(key, raw)
            #endif
        }
    }
}
