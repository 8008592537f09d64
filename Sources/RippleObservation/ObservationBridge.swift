import Observation
import Ripple

/// Joins Ripple's tracking and the toolchain's Observation module, both ways.
///
/// Call ``install(_:)`` once, early (at launch, or in a render tree's setup), before the scopes
/// that should see the other side start:
///
/// ```swift
/// import Observation
/// import Ripple
/// import RippleObservation
///
/// @Observable final class Counter {
///     var value = 0
///     var other = 0
/// }
///
/// ObservationBridge.install()
/// let counter = Counter()
/// let token = observe { print("value:", counter.value) }
/// // Prints "value: 0"
/// counter.other = 1   // not read: nothing
/// counter.value = 1
/// // Prints "value: 1"
/// ```
///
/// - ``Parts/observableModels``: Ripple's tracking scopes — `withTracking(_:onChange:)`,
///   `track(_:phase:onChange:)`, `observe(on:isolation:_:)`, `TrackedPublisher`,
///   `TrackedValues`, `PushPullComparison` — see reads of toolchain `@Observable`
///   models, property by property, in both phases, exactly as they see `@Published` properties.
///   Events name the changed property's key path (`TrackingEvent.keyPath`, matched with
///   `TrackingEvent.matches(_:)`); Observation does not say which instance changed, so
///   their `TrackingEvent.object` is `nil`.
/// - ``Parts/publishedProperties``: a class with `@Published` properties that also conforms to
///   `Observable` is tracked by `withObservationTracking` (and `Observations`) property by property.
///   This costs every `@Published` read its fast path (each read reports to Observation).
///
/// Installing is idempotent and cannot be undone. Scopes that started before it do not see the
/// other side.
///
/// On Apple platforms the bridge needs the systems that have the Observation module (macOS 14,
/// iOS 17, tvOS 17, watchOS 10); there, events name the changed key path from macOS 15, iOS 18,
/// tvOS 18 and watchOS 11 on (before, Observation does not say which property changed).
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
public enum ObservationBridge {
    /// Which directions of the bridge to install.
    public struct Parts: OptionSet, Sendable {
        /// The raw bits.
        public let rawValue: Int

        /// Creates a set of parts from its raw bits.
        public init(rawValue: Int) {
            self.rawValue = rawValue
        }

        /// Ripple's tracking sees `@Observable` models.
        public static let observableModels = Parts(rawValue: 1 << 0)
        /// Observation sees `@Published` properties of classes that conform to `Observable`.
        public static let publishedProperties = Parts(rawValue: 1 << 1)
        /// Both directions.
        public static let all: Parts = [.observableModels, .publishedProperties]
    }

    /// Installs the bridge's `parts` (both directions unless told otherwise). Safe to call more
    /// than once.
    public static func install(_ parts: Parts = .all) {
        if parts.contains(.observableModels) {
            _ExternalTracking.installScopeHook(ObservationScopeHook())
        }
        if parts.contains(.publishedProperties) {
            _ExternalTracking.install(Hook())
        }
    }

    /// Forwards `@Published` reads and writes to a per-object `ObservationRegistrar`.
    private final class Hook: _ExternalTrackingHook {
        enum Phase {
            case access
            case willSet
            case didSet
        }

        func access(_ object: AnyObject, property: Int) {
            guard let observable = object as? any Observable else { return }
            forward(observable, property: property, .access)
        }

        func willSet(_ object: AnyObject, property: Int) {
            guard let observable = object as? any Observable else { return }
            forward(observable, property: property, .willSet)
        }

        func didSet(_ object: AnyObject, property: Int) {
            guard let observable = object as? any Observable else { return }
            forward(observable, property: property, .didSet)
        }

        private func forward<Subject: Observable>(_ subject: Subject, property: Int, _ phase: Phase) {
            let state = _ExternalTracking.state(of: subject as AnyObject) { RegistrarHolder() }
            guard let holder = state as? RegistrarHolder else { return }
            // A stable key path per property: equal for equal indices, which is all Observation
            // needs to match a write with the reads it should wake.
            let keyPath = \Subject.[_ripplePublishedProperty: property]
            switch phase {
            case .access: holder.registrar.access(subject, keyPath: keyPath)
            case .willSet: holder.registrar.willSet(subject, keyPath: keyPath)
            case .didSet: holder.registrar.didSet(subject, keyPath: keyPath)
            }
        }
    }

    /// One `ObservationRegistrar` per object, kept in the object's `@Published` storage.
    private final class RegistrarHolder: Sendable {
        let registrar = ObservationRegistrar()
    }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension Observable {
    /// Not API: names a `@Published` property for the Observation bridge.
    public subscript(_ripplePublishedProperty index: Int) -> Int {
        index
    }
}
