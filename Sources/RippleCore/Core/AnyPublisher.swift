/// A publisher that performs type erasure by wrapping another publisher.
///
/// Subscribing to an `AnyPublisher` subscribes the same subscriber to the wrapped publisher:
/// nothing sits between them.
///
/// ```swift
/// let numbers: AnyPublisher<Int, Never> = [1, 2].publisher.eraseToAnyPublisher()
/// _ = numbers.sink { print($0) }
/// // Prints "1", "2"
/// ```
@frozen
public struct AnyPublisher<Output, Failure: Error>: Publisher, CustomStringConvertible,
    CustomPlaygroundDisplayConvertible
{
    @usableFromInline
    internal let box: any Publisher<Output, Failure>

    /// Creates a type-erasing publisher to wrap the provided publisher.
    @inlinable
    public init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
        if let erased = publisher as? AnyPublisher<Output, Failure> {
            self = erased
        } else {
            box = publisher
        }
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        box.receive(subscriber: subscriber)
    }

    public var description: String { "AnyPublisher" }

    /// The description, as Combine shows a type-erased publisher in a playground.
    public var playgroundDescription: Any { description }
}

extension Publisher {
    /// Wraps this publisher with a type eraser.
    @inlinable
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
        AnyPublisher(self)
    }
}

extension AnyPublisher {
    /// Returns itself: erasing an already erased publisher adds no wrapper.
    @inlinable
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
        self
    }
}
