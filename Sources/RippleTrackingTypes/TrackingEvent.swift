// The values Ripple's tracking hands to observers. Declared below the core, which makes them
// (a `@Published` write fires them) and imports this module without re-exporting it, so that
// `import Combine` does not see them; Ripple re-exports it, and declares what events say about
// the changed property (`propertyName`, `keyPath`, `matches(_:)`) where tracking lives.

/// When an observer hears about a change: before the new value is stored, or after.
public enum TrackingPhase: Sendable, Hashable {
    /// Before the store: the property still holds the old value (what `objectWillChange` needs).
    case willSet
    /// After the store: the new value is readable.
    case didSet
}

/// A change to a tracked property: which object, which property, and in which phase.
///
/// ```swift
/// withTracking { _ = model.name } onChange: { event in
///     print(event.matches(\Model.name), event.phase)
/// }
/// model.name = "Ada"
/// // Prints "true willSet"
/// ```
public struct TrackingEvent: @unchecked Sendable {
    /// The object whose property changed, or `nil` for a toolchain `@Observable` model: the
    /// Observation module reports which property changed, not on which instance (see
    /// ``subjectType`` and ``keyPath``).
    public let object: AnyObject?
    /// Whether the event is delivered before or after the store.
    public let phase: TrackingPhase
    /// The property that changed (the core's tracker for it, which knows its name and key path).
    @usableFromInline package let tracker: AnyObject
    /// The changed property's key path when the change came with one (an `@Observable` model's).
    @usableFromInline package let changedKeyPath: AnyKeyPath?

    /// (Inlinable: the core makes one for every change it reports, as cheaply as when this type was
    /// declared beside it.)
    @inlinable
    package init(object: AnyObject?, tracker: AnyObject, phase: TrackingPhase, keyPath: AnyKeyPath? = nil) {
        self.object = object
        self.tracker = tracker
        self.phase = phase
        self.changedKeyPath = keyPath
    }
}
