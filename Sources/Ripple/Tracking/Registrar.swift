/// Property-level tracking for a class you write by hand, in the toolchain Observation module's
/// vocabulary: call ``access(_:keyPath:accessor:)`` in getters and
/// ``withMutation(of:keyPath:accessor:_:)`` (or ``willSet(_:keyPath:accessor:)`` and
/// ``didSet(_:keyPath:accessor:)``) in setters.
///
/// ```swift
/// final class Thermostat {
///     private let registrar = TrackingRegistrar()
///     private var _target = 20
///     var target: Int {
///         get { registrar.access(self, keyPath: \.target); return _target }
///         set { registrar.withMutation(of: self, keyPath: \.target) { _target = newValue } }
///     }
/// }
/// ```
///
/// `@Published` properties need none of this: they take part in tracking by themselves.
public final class TrackingRegistrar: @unchecked Sendable {
    /// One tracker per key path, found by the key path's identity first (literal key paths are
    /// usually the same instance at a call site) and by equality otherwise.
    private let trackers = LockedValue<[(identity: ObjectIdentifier, keyPath: AnyKeyPath, tracker: TrackerStorage<TrackerState>)]>([])

    /// Creates a registrar.
    public init() {}

    /// How many key paths the registrar keeps a tracker for (tests).
    var trackedKeyPathCount: Int {
        trackers.withLock { $0.count }
    }

    /// The tracker for `keyPath`; a new one is named after the key path when it prints a name, or
    /// else after `accessor` — the property whose accessor called (the documented pattern calls
    /// from the property's own getter and setter, where `#function` is the property's name).
    private func tracker(for keyPath: AnyKeyPath, accessor: String) -> TrackerStorage<TrackerState> {
        let identity = ObjectIdentifier(keyPath)
        // Comparing key paths and making a tracker call no user code; a replaced key path is
        // released after unlocking.
        let (tracker, isNew, replaced) = trackers.withLock { trackers -> (TrackerStorage<TrackerState>, Bool, AnyKeyPath?) in
            if let entry = trackers.first(where: { $0.identity == identity }) {
                return (entry.tracker, false, nil)
            }
            if let index = trackers.firstIndex(where: { $0.keyPath == keyPath }) {
                // Another instance of a key path seen before (one made at run time, as in a generic
                // class): it replaces the one kept, so the next lookup by identity finds it, and the
                // list keeps one entry per key path however many instances come (appending one per
                // instance grew the list, and every lookup's walk, with each access).
                let tracker = trackers[index].tracker
                let replaced = trackers[index].keyPath
                trackers[index] = (identity, keyPath, tracker)
                return (tracker, false, replaced)
            }
            let tracker = TrackerStorage(state: TrackerState())
            trackers.append((identity, keyPath, tracker))
            return (tracker, true, nil)
        }
        withExtendedLifetime(replaced) {}
        guard isNew else { return tracker }
        tracker.setIdentityIfAbsent {
            TrackedIdentity(name: propertyName(of: keyPath) ?? propertyName(ofAccessor: accessor), keyPath: keyPath)
        }
        return tracker
    }

    /// Records a read of `keyPath` on `subject` in the current tracking scope, if any.
    ///
    /// - Parameters:
    ///   - subject: The object whose property is read.
    ///   - keyPath: The property's key path.
    ///   - accessor: Leave the default: called from the property's getter, it is the property's
    ///     name, which events use when the key path prints none (a computed property's does not).
    public func access<Subject: AnyObject, Member>(
        _ subject: Subject, keyPath: KeyPath<Subject, Member>, accessor: String = #function
    ) {
        guard trackingScopesAreOpen else { return }
        let tracker = tracker(for: keyPath, accessor: accessor)
        let version = tracker.version
        tracker.record(version: version, object: subject) {
            TrackedIdentity(name: propertyName(of: keyPath) ?? propertyName(ofAccessor: accessor), keyPath: keyPath)
        }
    }

    /// Announces a change of `keyPath` on `subject`, before the store.
    public func willSet<Subject: AnyObject, Member>(
        _ subject: Subject, keyPath: KeyPath<Subject, Member>, accessor: String = #function
    ) {
        tracker(for: keyPath, accessor: accessor).notify(.willSet, object: subject)
    }

    /// Announces a change of `keyPath` on `subject`, after the store.
    public func didSet<Subject: AnyObject, Member>(
        _ subject: Subject, keyPath: KeyPath<Subject, Member>, accessor: String = #function
    ) {
        tracker(for: keyPath, accessor: accessor).notify(.didSet, object: subject)
    }

    /// Performs `mutation` between the will-set and did-set announcements.
    public func withMutation<Subject: AnyObject, Member, T>(
        of subject: Subject, keyPath: KeyPath<Subject, Member>, accessor: String = #function,
        _ mutation: () throws -> T
    ) rethrows -> T {
        let tracker = tracker(for: keyPath, accessor: accessor)
        tracker.notify(.willSet, object: subject)
        defer { tracker.notify(.didSet, object: subject) }
        return try mutation()
    }
}


/// `target` for `\Thermostat.target`: the name a one-component key path to a stored property
/// prints with, or `nil` (a computed property's key path prints no name).
func propertyName(of keyPath: AnyKeyPath) -> String? {
    let description = String(describing: keyPath)
    let prefix = "\\" + String(describing: type(of: keyPath).rootType) + "."
    guard description.hasPrefix(prefix) else { return nil }
    let path = description.dropFirst(prefix.count)
    return path.contains(".") || path.hasPrefix("<") ? nil : String(path)
}

/// `target` for the `#function` of `target`'s getter or setter; `nil` for anything else (a method,
/// `init(…)`, a subscript), which does not name a property.
func propertyName(ofAccessor accessor: String) -> String? {
    guard let first = accessor.first, first == "_" || first.isLetter,
        accessor.allSatisfy({ $0 == "_" || $0.isLetter || $0.isNumber })
    else { return nil }
    return accessor
}
