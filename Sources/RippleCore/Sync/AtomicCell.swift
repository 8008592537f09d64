// The core's atomics, one name for two implementations:
//
// - Linux, Windows, Android (the default): Swift's `Synchronization.Atomic`, stored inline in its
//   owner — no allocation, nothing in between.
// - Apple platforms, where `Synchronization` needs macOS 15 / iOS 18 / tvOS 18 / watchOS 11 /
//   visionOS 2, and anywhere when built with `-Xswiftc -DRIPPLE_PORTABLE_ATOMICS` (which CI does on
//   Linux, so this path is compiled and tested there): the compiler's `__atomic` builtins through
//   static inline C functions (`CRippleSync`), on a word allocated separately, so its address stays
//   the same however the owner is moved or borrowed.
// - The explorer's build (`RIPPLE_EXPLORER`, Checkers/): the second one, each operation first a
//   scheduling point of the explorer's atomics mode (`explorerHooks?.atomicOperation`).
//
// Call sites read the same either way: `cell.load(ordering: .acquiring)`,
// `cell.compareExchange(expected:desired:ordering:)`, `cell.add(1, ordering: .relaxed)`.

#if canImport(Darwin) || RIPPLE_PORTABLE_ATOMICS || RIPPLE_EXPLORER
internal import CRippleSync

/// An atomic value on a separately allocated word (see the top of this file for when this one is used).
///
/// Supports the operations the core needs from `Synchronization.Atomic`, with the same names and
/// orderings, so that the call sites do not change with the implementation.
@usableFromInline
struct AtomicCell<Value: AtomicCellValue>: ~Copyable, @unchecked Sendable {
    /// The word, allocated by `init` and freed by `deinit`: its address never changes.
    @usableFromInline let address: UnsafeMutablePointer<Value.Word>

    /// Creates a cell holding `initialValue`.
    @usableFromInline
    init(_ initialValue: consuming Value) {
        address = .allocate(capacity: 1)
        address.initialize(to: Value.encodeAtomic(initialValue))
    }

    deinit {
        address.deallocate()
    }

    /// The current value.
    @usableFromInline
    func load(ordering: AtomicCellLoadOrdering) -> Value {
        #if RIPPLE_EXPLORER
        explorerHooks?.atomicOperation(address, writes: false)
        #endif
        return Value.decodeAtomic(Value.Word.atomicLoad(address, ordering.rawValue))
    }

    /// Replaces the value.
    @usableFromInline
    func store(_ desired: consuming Value, ordering: AtomicCellStoreOrdering) {
        #if RIPPLE_EXPLORER
        explorerHooks?.atomicOperation(address, writes: true)
        #endif
        Value.Word.atomicStore(address, Value.encodeAtomic(desired), ordering.rawValue)
    }

    /// Replaces the value and returns the one it replaced.
    @usableFromInline
    func exchange(_ desired: consuming Value, ordering: AtomicCellUpdateOrdering) -> Value {
        #if RIPPLE_EXPLORER
        explorerHooks?.atomicOperation(address, writes: true)
        #endif
        return Value.decodeAtomic(Value.Word.atomicExchange(address, Value.encodeAtomic(desired), ordering.rawValue))
    }

    /// Stores `desired` if the value is `expected`; returns whether it did and the value found.
    @usableFromInline
    func compareExchange(
        expected: consuming Value, desired: consuming Value, ordering: AtomicCellUpdateOrdering
    ) -> (exchanged: Bool, original: Value) {
        compareExchange(
            expected: expected, desired: desired, successOrdering: ordering,
            failureOrdering: ordering.failureOrdering)
    }

    /// Stores `desired` if the value is `expected`, with separate orderings for success and failure;
    /// returns whether it did and the value found.
    @usableFromInline
    func compareExchange(
        expected: consuming Value, desired: consuming Value, successOrdering: AtomicCellUpdateOrdering,
        failureOrdering: AtomicCellLoadOrdering
    ) -> (exchanged: Bool, original: Value) {
        #if RIPPLE_EXPLORER
        explorerHooks?.atomicOperation(address, writes: true)
        #endif
        let expectedWord = Value.encodeAtomic(expected)
        let found = Value.Word.atomicCompareExchange(
            address, expectedWord, Value.encodeAtomic(desired), successOrdering.rawValue, failureOrdering.rawValue)
        return (found == expectedWord, Value.decodeAtomic(found))
    }
}

extension AtomicCell where Value: FixedWidthInteger {
    /// Adds `operand` (wrapping); returns the values before and after.
    @usableFromInline
    @discardableResult
    func add(_ operand: Value, ordering: AtomicCellUpdateOrdering) -> (oldValue: Value, newValue: Value) {
        #if RIPPLE_EXPLORER
        explorerHooks?.atomicOperation(address, writes: true)
        #endif
        let old = Value.decodeAtomic(Value.Word.atomicFetchAdd(address, Value.encodeAtomic(operand), ordering.rawValue))
        return (old, old &+ operand)
    }

    /// Subtracts `operand` (wrapping); returns the values before and after.
    @usableFromInline
    @discardableResult
    func subtract(_ operand: Value, ordering: AtomicCellUpdateOrdering) -> (oldValue: Value, newValue: Value) {
        #if RIPPLE_EXPLORER
        explorerHooks?.atomicOperation(address, writes: true)
        #endif
        let old = Value.decodeAtomic(Value.Word.atomicFetchSub(address, Value.encodeAtomic(operand), ordering.rawValue))
        return (old, old &- operand)
    }
}

/// The ordering of an atomic load (the compiler's memory-order number).
@usableFromInline
struct AtomicCellLoadOrdering: Sendable {
    /// `__ATOMIC_RELAXED`, `__ATOMIC_ACQUIRE` or `__ATOMIC_SEQ_CST`.
    @usableFromInline let rawValue: Int32

    @usableFromInline
    init(rawValue: Int32) { self.rawValue = rawValue }

    /// No ordering, only atomicity.
    @inlinable static var relaxed: Self { Self(rawValue: 0) }
    /// Later reads and writes stay after this load.
    @inlinable static var acquiring: Self { Self(rawValue: 2) }
    /// One total order with every other sequentially consistent operation.
    @inlinable static var sequentiallyConsistent: Self { Self(rawValue: 5) }
}

/// The ordering of an atomic store (the compiler's memory-order number).
@usableFromInline
struct AtomicCellStoreOrdering: Sendable {
    /// `__ATOMIC_RELAXED`, `__ATOMIC_RELEASE` or `__ATOMIC_SEQ_CST`.
    @usableFromInline let rawValue: Int32

    @usableFromInline
    init(rawValue: Int32) { self.rawValue = rawValue }

    /// No ordering, only atomicity.
    @inlinable static var relaxed: Self { Self(rawValue: 0) }
    /// Earlier reads and writes stay before this store.
    @inlinable static var releasing: Self { Self(rawValue: 3) }
    /// One total order with every other sequentially consistent operation.
    @inlinable static var sequentiallyConsistent: Self { Self(rawValue: 5) }
}

/// The ordering of an atomic read-modify-write (the compiler's memory-order number).
@usableFromInline
struct AtomicCellUpdateOrdering: Sendable {
    /// `__ATOMIC_RELAXED`, `__ATOMIC_ACQUIRE`, `__ATOMIC_RELEASE`, `__ATOMIC_ACQ_REL` or
    /// `__ATOMIC_SEQ_CST`.
    @usableFromInline let rawValue: Int32

    @usableFromInline
    init(rawValue: Int32) { self.rawValue = rawValue }

    /// No ordering, only atomicity.
    @inlinable static var relaxed: Self { Self(rawValue: 0) }
    /// Later reads and writes stay after the operation.
    @inlinable static var acquiring: Self { Self(rawValue: 2) }
    /// Earlier reads and writes stay before the operation.
    @inlinable static var releasing: Self { Self(rawValue: 3) }
    /// Both of the above.
    @inlinable static var acquiringAndReleasing: Self { Self(rawValue: 4) }
    /// One total order with every other sequentially consistent operation.
    @inlinable static var sequentiallyConsistent: Self { Self(rawValue: 5) }

    /// The strongest ordering a failed compare-exchange may have (a failure only loads): the
    /// release half is dropped.
    @usableFromInline
    var failureOrdering: AtomicCellLoadOrdering {
        switch rawValue {
        case 3: return .relaxed
        case 4: return .acquiring
        default: return AtomicCellLoadOrdering(rawValue: rawValue)
        }
    }
}

/// A value an ``AtomicCell`` can hold: converted to and from one machine word.
@usableFromInline
protocol AtomicCellValue {
    /// The word the value is stored as.
    associatedtype Word: AtomicCellWord
    /// The word for `value`.
    static func encodeAtomic(_ value: consuming Self) -> Word
    /// The value stored as `word`.
    static func decodeAtomic(_ word: Word) -> Self
}

/// A word the C functions operate on: `UInt32`, `UInt64` or `UInt` (a pointer's size).
@usableFromInline
protocol AtomicCellWord: FixedWidthInteger {
    /// Loads `cell`'s word.
    static func atomicLoad(_ cell: UnsafeMutablePointer<Self>, _ order: Int32) -> Self
    /// Stores `value` in `cell`.
    static func atomicStore(_ cell: UnsafeMutablePointer<Self>, _ value: Self, _ order: Int32)
    /// Stores `value` in `cell`; returns the word it replaced.
    static func atomicExchange(_ cell: UnsafeMutablePointer<Self>, _ value: Self, _ order: Int32) -> Self
    /// Stores `desired` if `cell` holds `expected`; returns the word found.
    static func atomicCompareExchange(
        _ cell: UnsafeMutablePointer<Self>, _ expected: Self, _ desired: Self, _ order: Int32, _ failure: Int32
    ) -> Self
    /// Adds `operand` (wrapping); returns the word before.
    static func atomicFetchAdd(_ cell: UnsafeMutablePointer<Self>, _ operand: Self, _ order: Int32) -> Self
    /// Subtracts `operand` (wrapping); returns the word before.
    static func atomicFetchSub(_ cell: UnsafeMutablePointer<Self>, _ operand: Self, _ order: Int32) -> Self
}

/// `uint32_t`: the C functions ending in `_32`.
extension UInt32: AtomicCellWord {
    @usableFromInline
    static func atomicLoad(_ cell: UnsafeMutablePointer<Self>, _ order: Int32) -> Self {
        ripple_atomic_load_32(cell, order)
    }
    @usableFromInline
    static func atomicStore(_ cell: UnsafeMutablePointer<Self>, _ value: Self, _ order: Int32) {
        ripple_atomic_store_32(cell, value, order)
    }
    @usableFromInline
    static func atomicExchange(_ cell: UnsafeMutablePointer<Self>, _ value: Self, _ order: Int32) -> Self {
        ripple_atomic_exchange_32(cell, value, order)
    }
    @usableFromInline
    static func atomicCompareExchange(
        _ cell: UnsafeMutablePointer<Self>, _ expected: Self, _ desired: Self, _ order: Int32, _ failure: Int32
    ) -> Self {
        ripple_atomic_compare_exchange_32(cell, expected, desired, order, failure)
    }
    @usableFromInline
    static func atomicFetchAdd(_ cell: UnsafeMutablePointer<Self>, _ operand: Self, _ order: Int32) -> Self {
        ripple_atomic_fetch_add_32(cell, operand, order)
    }
    @usableFromInline
    static func atomicFetchSub(_ cell: UnsafeMutablePointer<Self>, _ operand: Self, _ order: Int32) -> Self {
        ripple_atomic_fetch_sub_32(cell, operand, order)
    }
}

/// `uint64_t`: the C functions ending in `_64`.
extension UInt64: AtomicCellWord {
    @usableFromInline
    static func atomicLoad(_ cell: UnsafeMutablePointer<Self>, _ order: Int32) -> Self {
        ripple_atomic_load_64(cell, order)
    }
    @usableFromInline
    static func atomicStore(_ cell: UnsafeMutablePointer<Self>, _ value: Self, _ order: Int32) {
        ripple_atomic_store_64(cell, value, order)
    }
    @usableFromInline
    static func atomicExchange(_ cell: UnsafeMutablePointer<Self>, _ value: Self, _ order: Int32) -> Self {
        ripple_atomic_exchange_64(cell, value, order)
    }
    @usableFromInline
    static func atomicCompareExchange(
        _ cell: UnsafeMutablePointer<Self>, _ expected: Self, _ desired: Self, _ order: Int32, _ failure: Int32
    ) -> Self {
        ripple_atomic_compare_exchange_64(cell, expected, desired, order, failure)
    }
    @usableFromInline
    static func atomicFetchAdd(_ cell: UnsafeMutablePointer<Self>, _ operand: Self, _ order: Int32) -> Self {
        ripple_atomic_fetch_add_64(cell, operand, order)
    }
    @usableFromInline
    static func atomicFetchSub(_ cell: UnsafeMutablePointer<Self>, _ operand: Self, _ order: Int32) -> Self {
        ripple_atomic_fetch_sub_64(cell, operand, order)
    }
}

/// `uintptr_t`: the C functions ending in `_word`.
extension UInt: AtomicCellWord {
    @usableFromInline
    static func atomicLoad(_ cell: UnsafeMutablePointer<Self>, _ order: Int32) -> Self {
        ripple_atomic_load_word(cell, order)
    }
    @usableFromInline
    static func atomicStore(_ cell: UnsafeMutablePointer<Self>, _ value: Self, _ order: Int32) {
        ripple_atomic_store_word(cell, value, order)
    }
    @usableFromInline
    static func atomicExchange(_ cell: UnsafeMutablePointer<Self>, _ value: Self, _ order: Int32) -> Self {
        ripple_atomic_exchange_word(cell, value, order)
    }
    @usableFromInline
    static func atomicCompareExchange(
        _ cell: UnsafeMutablePointer<Self>, _ expected: Self, _ desired: Self, _ order: Int32, _ failure: Int32
    ) -> Self {
        ripple_atomic_compare_exchange_word(cell, expected, desired, order, failure)
    }
    @usableFromInline
    static func atomicFetchAdd(_ cell: UnsafeMutablePointer<Self>, _ operand: Self, _ order: Int32) -> Self {
        ripple_atomic_fetch_add_word(cell, operand, order)
    }
    @usableFromInline
    static func atomicFetchSub(_ cell: UnsafeMutablePointer<Self>, _ operand: Self, _ order: Int32) -> Self {
        ripple_atomic_fetch_sub_word(cell, operand, order)
    }
}

/// Stored as itself.
extension UInt32: AtomicCellValue {
    @inlinable static func encodeAtomic(_ value: consuming Self) -> Self { value }
    @inlinable static func decodeAtomic(_ word: Self) -> Self { word }
}

/// Stored as itself.
extension UInt64: AtomicCellValue {
    @inlinable static func encodeAtomic(_ value: consuming Self) -> Self { value }
    @inlinable static func decodeAtomic(_ word: Self) -> Self { word }
}

/// Stored as itself.
extension UInt: AtomicCellValue {
    @inlinable static func encodeAtomic(_ value: consuming Self) -> Self { value }
    @inlinable static func decodeAtomic(_ word: Self) -> Self { word }
}

/// Stored as its bit pattern.
extension Int: AtomicCellValue {
    @inlinable static func encodeAtomic(_ value: consuming Self) -> UInt { UInt(bitPattern: value) }
    @inlinable static func decodeAtomic(_ word: UInt) -> Self { Int(bitPattern: word) }
}

/// Stored as 0 or 1.
extension Bool: AtomicCellValue {
    @inlinable static func encodeAtomic(_ value: consuming Self) -> UInt32 { value ? 1 : 0 }
    @inlinable static func decodeAtomic(_ word: UInt32) -> Self { word != 0 }
}

/// A non-optional value whose `Optional` an ``AtomicCell`` can hold as a word, 0 meaning `nil`.
@usableFromInline
protocol AtomicCellOptionalWrapped {
    /// A non-zero word for `value`.
    static func encodeAtomicWrapped(_ value: consuming Self) -> UInt
    /// The value stored as the non-zero `word`.
    static func decodeAtomicWrapped(_ word: UInt) -> Self
}

/// Stored as its object's address.
extension Unmanaged: AtomicCellOptionalWrapped {
    @inlinable
    static func encodeAtomicWrapped(_ value: consuming Self) -> UInt {
        UInt(bitPattern: value.toOpaque())
    }
    @inlinable
    static func decodeAtomicWrapped(_ word: UInt) -> Self {
        Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: word)!)
    }
}

/// `nil` stored as 0.
extension Optional: AtomicCellValue where Wrapped: AtomicCellOptionalWrapped {
    @inlinable
    static func encodeAtomic(_ value: consuming Self) -> UInt {
        switch consume value {
        case .some(let wrapped): return Wrapped.encodeAtomicWrapped(wrapped)
        case .none: return 0
        }
    }
    @inlinable
    static func decodeAtomic(_ word: UInt) -> Self {
        word == 0 ? nil : Wrapped.decodeAtomicWrapped(word)
    }
}

#else
import Synchronization

/// The core's atomic value: here `Synchronization.Atomic` itself, stored inline (see the top of this
/// file for the other implementation and when it is used).
@usableFromInline
typealias AtomicCell<Value: AtomicRepresentable> = Atomic<Value>
#endif
