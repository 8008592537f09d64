import Synchronization

/// The part of a `@Published` property's storage that does not depend on its value type, so the
/// object's will-change publisher can be reached from a raw field offset.
@usableFromInline
class PublishedBoxBase: @unchecked Sendable {
    @usableFromInline
    let lock = Lock()
    /// The owning object's will-change publisher, once somebody has asked for it. Written once
    /// (compare-and-swap from `nil`), read with one atomic load; the box owns a +1 on it.
    @usableFromInline
    let willChangeSlot = Atomic<Unmanaged<ObservableObjectPublisher>?>(nil)

    @usableFromInline
    init() {}

    deinit {
        willChangeSlot.load(ordering: .acquiring)?.release()
    }

    /// The publisher linked to this box, if any.
    @inlinable
    final var objectWillChange: ObservableObjectPublisher? {
        willChangeSlot.load(ordering: .acquiring)?.takeUnretainedValue()
    }

    /// Stores `publisher` unless one is there already; returns the one that is there afterwards.
    @usableFromInline
    final func install(_ publisher: ObservableObjectPublisher) -> ObservableObjectPublisher {
        let candidate = Unmanaged.passRetained(publisher)
        let (exchanged, existing) = willChangeSlot.compareExchange(
            expected: nil, desired: candidate, ordering: .acquiringAndReleasing)
        if exchanged { return publisher }
        candidate.release()
        return existing!.takeUnretainedValue()
    }
}

/// The storage of one `@Published` property of one object: its value, its `$` publisher (created
/// on first use) and the object's will-change publisher (linked when somebody first asks for it).
@usableFromInline
final class PublishedBox<Value>: PublishedBoxBase, @unchecked Sendable {
    /// Guarded by `lock`.
    @exclusivity(unchecked) @usableFromInline
    var storedValue: Value
    /// The `$property` publisher's machinery, created on first use. Guarded by `lock`.
    @exclusivity(unchecked) @usableFromInline
    var projection: SubjectCore<Value, Never>?
    /// `assign(to: &$property)` subscriptions: they live as long as the property does.
    @exclusivity(unchecked) @usableFromInline
    var assignments: [AnyCancellable] = []

    @inlinable
    init(_ value: Value) {
        storedValue = value
        super.init()
    }

    deinit {
        // The subscriptions kept by `assign(to:)` end with the object (their subscribers hold this
        // box weakly, so this runs).
        for assignment in assignments { assignment.cancel() }
    }

    @inlinable
    var value: Value {
        lock.lock()
        defer { lock.unlock() }
        return storedValue
    }

    /// Will-change first, then the `$` publisher, then the store: everyone notified still reads the
    /// old value. With nobody observing this is one short critical section.
    @inlinable
    func set(_ newValue: Value) {
        let willChange = objectWillChange
        lock.lock()
        let projection = self.projection
        if willChange == nil && projection == nil {
            storedValue = newValue
            lock.unlock()
            return
        }
        lock.unlock()
        willChange?.send()
        projection?.send(newValue)
        lock.lock()
        storedValue = newValue
        lock.unlock()
    }

    /// The `$property` machinery, created (seeded with the current value) on first use.
    @inlinable
    func subject() -> SubjectCore<Value, Never> {
        lock.lock()
        defer { lock.unlock() }
        if let projection { return projection }
        let created = SubjectCore<Value, Never>(current: storedValue)
        projection = created
        return created
    }

    @usableFromInline
    func keep(_ assignment: AnyCancellable) {
        lock.lock()
        assignments.append(assignment)
        lock.unlock()
    }
}
