/// A subscription of Ripple's own that ``AnyCancellable`` cancels with a plain virtual call: no
/// protocol witness table and no generic metadata on the way, so a generic subclass is cancelled
/// as cheaply as a closure is called.
///
/// It has no stored properties, so a subclass lays out its fields as if it had no superclass.
@usableFromInline
class CancellableObject: @unchecked Sendable {
    @inlinable
    init() {}

    /// Overridden by every subclass.
    @usableFromInline
    func cancel() {}
}
