/// The environment entry of an `Observable` object of type `Object` (one per type, as in SwiftUI).
struct ObservableObjectKey<Object: AnyObject>: EnvironmentKey {
    static var defaultValue: Object? { nil }
}

extension View {
    /// Places an `@Observable` object in the environment of this view and its descendants, where
    /// `@Environment(Model.self)` reads it (SwiftUI's iOS 17 form; `nil` removes it).
    ///
    /// ```swift
    /// @Observable final class Library {
    ///     var books = ["Dune"]
    /// }
    ///
    /// struct Shelf: View {
    ///     @Environment(Library.self) private var library
    ///     var body: some View { Text("\(library.books.count) books") }
    /// }
    ///
    /// let tree = RenderTree(Shelf().environment(Library()))
    /// print(tree.texts)
    /// // Prints "["1 books"]"
    /// ```
    ///
    /// A reader's body depends on the properties it reads (property level), and on which object the
    /// environment holds: replacing the object re-runs its readers.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    public func environment<T: AnyObject & Observable>(_ object: T?) -> some View {
        _EnvironmentWriter(content: self) { $0[ObservableObjectKey<T>.self] = object }
    }
}

extension Environment {
    /// Creates an environment property that reads the `@Observable` object of type `objectType`
    /// that an ancestor placed with `environment(_:)`.
    ///
    /// Reading it when no ancestor placed one traps, naming the type (SwiftUI's behaviour); the
    /// optional form, `@Environment(Model.self) var model: Model?`, reads `nil` instead.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    public init(_ objectType: Value.Type) where Value: AnyObject & Observable {
        self.init(
            read: { environment in
                guard let object = environment[ObservableObjectKey<Value>.self] else {
                    fatalError(
                        "No Observable object of type \(Value.self) found. A View.environment(_:) for \(Value.self) "
                            + "may be missing as an ancestor of this view.")
                }
                return object
            },
            dependency: { $0[ObservableObjectKey<Value>.self] as Any })
    }

    /// Creates an environment property that reads the `@Observable` object of type `objectType`,
    /// or `nil` when no ancestor placed one with `environment(_:)`.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    public init<T: AnyObject & Observable>(_ objectType: T.Type) where Value == T? {
        self.init(read: { $0[ObservableObjectKey<T>.self] }, dependency: { $0[ObservableObjectKey<T>.self] as Any })
    }
}
