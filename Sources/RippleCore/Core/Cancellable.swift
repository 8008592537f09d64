/// A protocol indicating that an activity or action supports cancellation.
public protocol Cancellable {
    /// Cancels the activity. Calling it more than once must be harmless.
    func cancel()
}

extension Cancellable {
    /// Stores this cancellable in the given collection as an ``AnyCancellable``.
    @inlinable
    public func store<C: RangeReplaceableCollection>(in collection: inout C) where C.Element == AnyCancellable {
        AnyCancellable(self).store(in: &collection)
    }

    /// Stores this cancellable in the given set as an ``AnyCancellable``.
    @inlinable
    public func store(in set: inout Set<AnyCancellable>) {
        AnyCancellable(self).store(in: &set)
    }
}
