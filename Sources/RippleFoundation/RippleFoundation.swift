// RippleFoundation: Combine's Foundation side (RippleFoundationCore: notification, timer and
// URLSession data task publishers, JSON coders as top-level coders, RunLoop and OperationQueue
// schedulers) plus Ripple's own Foundation-side addition, a completion-handler bridge. It
// re-exports Ripple and Foundation, so `import RippleFoundation` is the one import code that used
// Combine together with Foundation needs.
@_exported import Ripple
@_exported import RippleFoundationCore

extension Future where Failure == any Error {
    /// Bridges an Objective-C-style completion handler — `(value?, error?)` — into a future.
    ///
    /// ```swift
    /// let data = Future<Data, any Error>(completionHandler: { done in
    ///     legacyClient.load(url, completion: done)
    /// })
    /// ```
    ///
    /// An error fails the future; a value succeeds it; a call with neither fails with
    /// ``MissingValueError``. The handler counts once, like every promise.
    public convenience init(
        completionHandler start: @escaping (@escaping @Sendable (Output?, (any Error)?) -> Void) -> Void
    ) {
        self.init { promise in
            start { value, error in
                if let error {
                    promise(.failure(error))
                } else if let value {
                    promise(.success(value))
                } else {
                    promise(.failure(MissingValueError()))
                }
            }
        }
    }
}

/// A completion handler reported neither a value nor an error.
public struct MissingValueError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Creates the error.
    public init() {}
    public var description: String { "The completion handler reported neither a value nor an error" }
}

