/// A type of object with a publisher that emits before the object has changed.
///
/// Every class that conforms gets an `objectWillChange` publisher for free. It emits
/// before any of the class's ``Published`` properties changes, and it is the **same instance on
/// every access** — for final and non-final classes, generic classes, subclasses, classes whose
/// `@Published` properties are declared in a superclass, and classes with no `@Published` at all
/// (call `objectWillChange.send()` yourself there).
///
/// ```swift
/// final class Counter: ObservableObject {
///     @Published var count = 0
/// }
/// let counter = Counter()
/// let cancellable = counter.objectWillChange.sink { print("will change from", counter.count) }
/// counter.count = 1
/// // Prints "will change from 0"
/// ```
///
/// A class that declares its own `objectWillChange` keeps it; `@Published` does not feed it.
///
/// Differs from Combine: the synthesized publisher is found through a field offset computed once
/// per class, not by reflecting on the object on each access, and a class without `@Published`
/// properties gets one stable publisher too (OpenCombine hands out a new, unconnected one each time).
public protocol ObservableObject: AnyObject {
    /// The type of publisher that emits before the object has changed.
    associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
    where ObjectWillChangePublisher.Failure == Never

    /// A publisher that emits before the object has changed.
    var objectWillChange: ObjectWillChangePublisher { get }
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
    /// A publisher that emits before the object has changed: one instance per object, created on
    /// first access.
    @inlinable
    public var objectWillChange: ObservableObjectPublisher {
        objectWillChangePublisher(of: self)
    }
}
