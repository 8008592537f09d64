@testable import Ripple
@testable import RippleCore
import Testing

/// Which atomics this build uses: Swift's `Synchronization.Atomic` stored inline (Linux, Windows,
/// Android), or the word allocated apart that Apple platforms use (and Linux, built with
/// `-DRIPPLE_PORTABLE_ATOMICS`, so that CI runs the suites on them). CI looks for the second
/// test's name in the run that passes the flag, so a flag that stopped reaching the build fails.
@Suite struct AtomicsInUseTests {
    #if canImport(Darwin) || RIPPLE_PORTABLE_ATOMICS
    @Test func thePortableAtomicsAreInUse() {
        // A cell is the address of its allocated word.
        #expect(MemoryLayout<AtomicCell<UInt32>>.size == MemoryLayout<UnsafeMutablePointer<UInt32>>.size)
        let cell = AtomicCell<UInt32>(7)
        #expect(cell.address.pointee == 7)
    }
    #else
    @Test func synchronizationsAtomicsAreInUse() {
        // Stored inline: a 32-bit cell is four bytes.
        #expect(MemoryLayout<AtomicCell<UInt32>>.size == 4)
    }
    #endif
}
