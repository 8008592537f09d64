extension TrackingEvent: CustomStringConvertible {
    /// The tracker of the property that changed.
    var propertyTracker: PropertyTracker { unsafeDowncast(tracker, to: PropertyTracker.self) }

    /// The changed property's name (`apples`), when known: always for `@Published` properties and
    /// ``TrackingRegistrar`` properties announced from their own accessors; for `@Observable`
    /// models, from the symbol of the property's getter in the binary (where the binary keeps its
    /// symbols), found once per key path.
    public var propertyName: String? {
        if let changedKeyPath {
            // The bridge's lookup is cached per key path, and names stored properties' too.
            if let hook = _ExternalTracking.scopeHook { return hook.propertyName(of: changedKeyPath) }
            return Ripple.propertyName(of: changedKeyPath)
        }
        return propertyTracker.identity?.name
    }

    /// The exact key path, for properties announced through ``TrackingRegistrar`` and properties of
    /// `@Observable` models (`\Counter.value`).
    public var keyPath: AnyKeyPath? { changedKeyPath ?? propertyTracker.identity?.keyPath }

    /// The type of the object whose property changed (known even when ``object`` is not).
    public var subjectType: Any.Type {
        if let object { return type(of: object) }
        if let keyPath { return type(of: keyPath).rootType }
        return AnyObject.self
    }

    /// Whether the change was to the property that `keyPath` reads on ``object``.
    ///
    /// It evaluates `keyPath` on the object (in a private tracking scope, so an enclosing scope
    /// does not pick up the read) and checks whether that read touched the changed property; the
    /// storage key path of a `@Published` property (`\Basket._apples`, inside the class) matches too.
    public func matches(_ keyPath: AnyKeyPath) -> Bool {
        if let own = self.keyPath, own == keyPath { return true }
        guard let object else { return false }
        let tracker = propertyTracker
        let (value, read) = withAccesses(reportingToOuterScope: false) {
            applyKeyPath(keyPath, to: object)
        } consume: { value, accesses in
            (value, accesses.contains { $0.isOf(tracker) })
        }
        if read { return true }
        if let storage = publishedStorageTracker(of: value), storage === tracker { return true }
        return false
    }

    public var description: String {
        "\(phase) \(propertyName ?? "a property") of \(subjectType)"
    }
}

/// `object[keyPath: keyPath]`, or `nil` when the key path does not apply to the object's type.
private func applyKeyPath(_ keyPath: AnyKeyPath, to object: AnyObject) -> Any? {
    func apply<Root>(_ root: Root) -> Any? {
        root[keyPath: keyPath]
    }
    return _openExistential(object, do: apply)
}
