#if !(canImport(Darwin) || RIPPLE_PORTABLE_ATOMICS)
import Synchronization  // AtomicCell is Synchronization.Atomic here (Sync/AtomicCell.swift)
#endif

/// A unique identifier for identifying publisher streams.
///
/// `CombineIdentifier()` is unique for the process lifetime; `CombineIdentifier(object)` is stable for
/// the lifetime of `object`. The two kinds never collide: generated identifiers carry the top bit,
/// which no object address uses.
@frozen
public struct CombineIdentifier: Hashable, CustomStringConvertible, Sendable {
    @usableFromInline
    internal let rawValue: UInt64

    /// Creates a unique identifier.
    public init() {
        rawValue = nextCombineIdentifier.add(1, ordering: .relaxed).newValue | (1 << 63)
    }

    /// Creates an identifier derived from an object's identity.
    public init(_ obj: AnyObject) {
        rawValue = UInt64(UInt(bitPattern: ObjectIdentifier(obj)))
    }

    public var description: String {
        "0x" + String(rawValue, radix: 16)
    }
}

private let nextCombineIdentifier = AtomicCell<UInt64>(0)

/// A protocol for uniquely identifying publisher streams.
public protocol CustomCombineIdentifierConvertible {
    /// An identifier for this publisher stream.
    var combineIdentifier: CombineIdentifier { get }
}

extension CustomCombineIdentifierConvertible where Self: AnyObject {
    /// An identifier derived from the object's identity.
    public var combineIdentifier: CombineIdentifier {
        CombineIdentifier(self)
    }
}
