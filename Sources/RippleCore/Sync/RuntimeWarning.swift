#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(WinSDK)
import WinSDK
import ucrt
#endif

/// A mistake Ripple can see at run time but that is not an error: it is printed to standard error
/// once per process, naming the fix.
package enum RuntimeWarning: Hashable, Sendable {
    /// A re-running observer's first run read nothing Ripple tracks, and no bridge to another
    /// tracking system is installed: it will never run again.
    case observerReadNothing
    /// RippleTesting's `propertiesRead` saw no read Ripple tracks, and no bridge to another tracking
    /// system is installed: if the body read an `@Observable` model, the answer is wrongly empty.
    case propertiesReadSawNothing

    /// What is printed.
    package var message: String {
        switch self {
        case .observerReadNothing:
            "Ripple warning: an observer (observe, TrackedPublisher, TrackedValues) read no property "
                + "Ripple tracks on its first run, so it will not run again. If it reads an @Observable "
                + "model, install the Observation bridge once at launch: ObservationBridge.install() "
                + "(RippleObservation). This warning is printed once.\n"
        case .propertiesReadSawNothing:
            "Ripple warning: propertiesRead saw no property Ripple tracks. Reads of an @Observable "
                + "model are listed only with the Observation bridge installed: call "
                + "ObservationBridge.install() (RippleObservation) in the test suite's init. This "
                + "warning is printed once.\n"
        }
    }

    /// How often each warning was raised, per thread (printed the first time in the process
    /// only); tests read their own thread's count.
    static let raised = LockedValue<[Raise: Int]>([:])

    /// A warning raised on a thread (``currentThreadID()``).
    struct Raise: Hashable {
        let warning: RuntimeWarning
        let thread: UInt
    }

    /// How often this warning was raised on the calling thread.
    package var raisedOnThisThread: Int {
        Self.raised.withLock { $0[Raise(warning: self, thread: currentThreadID()), default: 0] }
    }

    /// Prints the warning if this is its first time in the process.
    package func raise() {
        let raise = Raise(warning: self, thread: currentThreadID())
        let first = Self.raised.withLock { counts -> Bool in
            let before = counts.lazy.filter { $0.key.warning == self }.reduce(0) { $0 + $1.value }
            counts[raise, default: 0] += 1
            return before == 0
        }
        guard first else { return }
        var text = message
        text.withUTF8 { bytes in
            #if os(Windows)
            _ = _write(2, bytes.baseAddress, UInt32(bytes.count))
            #else
            _ = write(2, bytes.baseAddress, bytes.count)
            #endif
        }
    }
}
