#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A cheap check that the calling thread still has stack to spare, so that recursion Ripple
/// cannot flatten — publishers nested in publishers without end, a chain of re-entrant sends —
/// stops with a message naming the cause instead of a bare stack overflow.
///
/// The thread's stack bounds are looked up once per thread (one thread-local read after that);
/// the check itself compares the address of a local variable with the bounds. Where the bounds
/// cannot be found (Windows, an unusual thread), or the local is not on the thread's stack (a
/// sanitizer's fake frame), the check does nothing.
enum StackGuard {
    /// Below this much stack left, Ripple traps rather than recurse further: enough for the
    /// trap's own work and for the user code that ran since the last check.
    static let reserve = 128 * 1024

    /// Traps with a message naming `operation` when less than ``reserve`` bytes of stack are left.
    @inline(__always)
    static func check(_ operation: @autoclosure () -> String) {
        var marker: UInt8 = 0
        let here = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        let (low, high) = bounds()
        // Outside the bounds (a sanitizer's fake stack frame, unknown bounds): no check.
        guard here >= low, here < high else { return }
        if here - low < UInt(reserve) {
            fatalError(
                "Ripple: the stack is nearly exhausted (\((here - low) / 1024) KB left) in \(operation()): "
                    + "publishers nested without end, or a chain of re-entrant sends, is too deep; "
                    + "break the recursion (for example with receive(on:) or a buffer)")
        }
    }

    /// The calling thread's stack, lowest and one past the highest address; `(0, 0)` when unknown.
    static func bounds() -> (UInt, UInt) {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        if let cached = pthread_getspecific(key) {
            let pair = cached.assumingMemoryBound(to: (UInt, UInt).self)
            return pair.pointee
        }
        let pair = UnsafeMutablePointer<(UInt, UInt)>.allocate(capacity: 1)
        pair.initialize(to: findBounds())
        pthread_setspecific(key, pair)
        return pair.pointee
        #else
        return (0, 0)
        #endif
    }

    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    /// Each thread's bounds, allocated on first use and freed when the thread exits.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pair in pair?.deallocate() }
        require(status == 0, "Ripple: pthread_key_create failed (\(status))")
        return key
    }()
    #endif

    #if canImport(Glibc) || canImport(Musl)
    /// `pthread_getattr_np`, which the C library has but its Swift module does not declare
    /// (it needs `_GNU_SOURCE`): looked up once by name.
    private typealias GetAttributes = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
    private static let getAttributes: GetAttributes? = {
        guard let symbol = dlsym(nil, "pthread_getattr_np") else { return nil }
        return unsafeBitCast(symbol, to: GetAttributes.self)
    }()

    private static func findBounds() -> (UInt, UInt) {
        guard let getAttributes else { return (0, 0) }
        var attributes = pthread_attr_t()
        guard getAttributes(pthread_self(), &attributes) == 0 else { return (0, 0) }
        defer { pthread_attr_destroy(&attributes) }
        var address: UnsafeMutableRawPointer?
        var size = 0
        guard pthread_attr_getstack(&attributes, &address, &size) == 0, let address else { return (0, 0) }
        let low = UInt(bitPattern: address)
        return (low, low + UInt(size))
    }
    #elseif canImport(Darwin)
    private static func findBounds() -> (UInt, UInt) {
        let thread = pthread_self()
        let top = UInt(bitPattern: pthread_get_stackaddr_np(thread))
        let size = UInt(pthread_get_stacksize_np(thread))
        return top > size ? (top - size, top) : (0, 0)
    }
    #endif
}
