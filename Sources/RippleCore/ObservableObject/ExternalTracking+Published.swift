// Tracking knows nothing of ObservableObject; this is where the two meet (the bridge's per-object
// state lives in an object's `@Published` storage).

extension _ExternalTracking {
    /// Per-object state for the bridge (its `ObservationRegistrar`), kept in the object's first
    /// `@Published` storage; `nil` for objects without `@Published` properties.
    public static func state(of object: AnyObject, create: () -> AnyObject) -> AnyObject? {
        let first = LayoutCache.firstPublishedOffset(of: object)
        guard first >= 0 else { return nil }
        return unmanagedPublishedBox(of: object, at: first)._withUnsafeGuaranteedRef { box in
            box.externalState(create: create)
        }
    }
}
