/// A property wrapper type that supports creating bindings to the mutable properties of
/// `@Observable` models (`$model.apples` for `@Bindable var model`, `Bindable(model).apples`).
///
/// ```swift
/// @Observable final class Basket {
///     var note = ""
/// }
///
/// struct NoteEditor: View {
///     @Bindable var basket: Basket
///     var body: some View {
///         TextField("Note", text: $basket.note)
///     }
/// }
/// ```
///
/// It only makes bindings: observation comes from the model itself. A body re-runs when a property
/// it read changes (property level), whichever way the model reached the view — a plain property,
/// `@State`, `@Bindable` or `@Environment(Model.self)`.
///
/// As in SwiftUI, it takes `Observable` classes only: an `ObservableObject` makes its bindings
/// with `$model.property` under `@ObservedObject`, `@StateObject` or `@EnvironmentObject`. A class
/// written by hand with a `TrackingRegistrar` declares `Observable` (a marker protocol) to be used
/// here.
@propertyWrapper
@dynamicMemberLookup
public struct Bindable<Value> {
    /// The wrapped object.
    public var wrappedValue: Value

    /// The bindable wrapper for the object that creates bindings to its properties using dynamic
    /// member lookup.
    public var projectedValue: Bindable<Value> { self }

    /// Creates a bindable object from an observable object (`@Bindable var model: Model`).
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    public init(wrappedValue: Value) where Value: AnyObject & Observable {
        self.wrappedValue = wrappedValue
    }

    /// Creates a bindable object from an observable object, to make bindings to its properties
    /// (`Bindable(model).apples`).
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    public init(_ wrappedValue: Value) where Value: AnyObject & Observable {
        self.wrappedValue = wrappedValue
    }

    /// Creates a bindable from the value of another bindable.
    public init(projectedValue: Bindable<Value>) {
        self = projectedValue
    }

    /// A binding to the property at `keyPath` of the object (a write of an equal value is skipped).
    public subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<Value, Subject>) -> Binding<Subject>
    where Value: AnyObject {
        objectBinding(wrappedValue, keyPath)
    }
}

extension Bindable: Identifiable where Value: Identifiable {
    /// The stable identity of the wrapped object.
    public var id: Value.ID { wrappedValue.id }
}

extension Bindable: Sendable where Value: Sendable {}
