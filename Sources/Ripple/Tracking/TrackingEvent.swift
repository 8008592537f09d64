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
public struct TrackingEvent: @unchecked Sendable, CustomStringConvertible {
    /// The object whose property changed.
    public let object: AnyObject
    /// The key path of the property that changed, when known.
    public let keyPath: AnyKeyPath?
    /// Whether the event is delivered before or after the store.
    public let phase: TrackingPhase

    /// Whether the change was to the property named by `keyPath`.
    ///
    /// For `@Published` properties both the property (`\Model.name`) and its storage
    /// (`\Model._name`) match.
    public func matches(_ keyPath: AnyKeyPath) -> Bool {
        guard let own = self.keyPath else { return false }
        return own == keyPath || storageKeyPath == keyPath
    }

    /// For a `@Published` property, its storage key path (`\Model._name`).
    let storageKeyPath: AnyKeyPath?

    init(object: AnyObject, keyPath: AnyKeyPath?, storageKeyPath: AnyKeyPath? = nil, phase: TrackingPhase) {
        self.object = object
        self.keyPath = keyPath
        self.storageKeyPath = storageKeyPath
        self.phase = phase
    }

    public var description: String {
        let name = keyPath.map { "\($0)" } ?? "a property"
        return "\(phase) \(name) of \(type(of: object))"
    }
}
