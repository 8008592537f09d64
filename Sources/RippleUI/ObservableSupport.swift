// `@Observable`, `Observable` and `withObservationTracking` come with `import RippleUI`, as they
// come with `import SwiftUI`; so does `ObservationBridge` (for `observe {}` over `@Observable`
// models outside a view).
@_exported import Observation
@_exported import RippleObservation

/// Makes toolchain `@Observable` reads part of Ripple's tracking scopes, once per process (the
/// first render tree does it): a body evaluated in a scope then depends on the `@Observable`
/// properties it read. `@Published` reads keep their fast path. (Apple systems without the
/// Observation module have no `@Observable` models to see.)
let observationBridge: Void = {
    if #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) {
        ObservationBridge.install(.observableModels)
    }
}()

/// Whether a tracked read of a property of `object` makes a view body depend on that property.
///
/// As in SwiftUI: properties of `@Observable` models (and of classes that declare `Observable` and
/// announce their properties through a ``TrackingRegistrar``) and `@State` values count; a
/// `@Published` property of an `ObservableObject` does not — the object is observed through its
/// wrapper (`@ObservedObject`, `@StateObject`, `@EnvironmentObject`) at object level, or not at all
/// (`Store.shared.count` read with no wrapper, or `store.child.count` where only `store` is observed).
func isViewDependency(_ object: AnyObject) -> Bool {
    guard object is any ObservableObject else { return true }
    guard #available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *) else { return false }
    return object is any Observable
}
