import Observation
import Ripple

/// Makes Ripple's `@Published` properties visible to Swift's Observation.
///
/// After ``install()``, a class that has `@Published` properties and also conforms to `Observable`
/// is tracked by `withObservationTracking` (and `Observations`) property by property, exactly as an
/// `@Observable` class would be:
///
/// ```swift
/// import Observation
/// import Ripple
/// import RippleObservation
///
/// final class Basket: ObservableObject, Observable {
///     @Published var apples = 0
///     @Published var peaches = 0
/// }
///
/// ObservationBridge.install()
/// let basket = Basket()
/// withObservationTracking { _ = basket.apples } onChange: { print("apples will change") }
/// basket.peaches += 1  // not read: nothing
/// basket.apples += 1
/// // Prints "apples will change"
/// ```
///
/// The bridge costs `@Published` reads their fast path (each read reports to Observation), so it is
/// opt-in. Classes that do not conform to `Observable` are unaffected beyond that.
public enum ObservationBridge {
    /// Installs the bridge. Safe to call more than once.
    public static func install() {
        _ExternalTracking.install(Hook())
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

extension Observable {
    /// Not API: names a `@Published` property for the Observation bridge.
    public subscript(_ripplePublishedProperty index: Int) -> Int {
        index
    }
}
