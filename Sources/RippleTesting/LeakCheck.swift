#if canImport(Testing)
import Testing
#endif

/// Runs `body` with Ripple's subscription registry on, and returns the subscriptions it made that
/// are still alive when it returns — each with the publisher chain that made it.
///
/// Only `body`'s own subscriptions count (made on its thread, or in tasks that inherit its
/// task-local values), so tests running in parallel do not see each other's.
///
/// ```swift
/// final class Model {
///     let query = PassthroughSubject<String, Never>()
///     var results: [String] = []
///     var cancellables = Set<AnyCancellable>()
///     init() {
///         query.map { $0.uppercased() }.sink { self.results.append($0) }  // keeps self: a cycle
///             .store(in: &cancellables)
///     }
/// }
/// let leaks = leakedSubscriptions { _ = Model() }
/// print(leaks.map(\.chain))
/// // Prints "["PassthroughSubject → Map → Sink"]"
/// ```
///
/// - Returns: The subscriptions `body` made that are still alive, as far as Ripple sees their end
///   without wrapping them: a `sink` or `assign` that neither completed nor was cancelled or
///   released; a subscriber class of your own passed to `subscribe(_:)` that was not released.
public func leakedSubscriptions(in body: () throws -> Void) rethrows -> [RippleDiagnostics.LiveSubscription] {
    try RippleDiagnostics.withRegistry(body).alive
}

/// Runs the asynchronous `body` with Ripple's subscription registry on, and returns the
/// subscriptions it made that are still alive when it returns (see ``leakedSubscriptions(in:)``).
///
/// - Returns: The subscriptions `body` made that are still alive, as far as Ripple sees their end
///   without wrapping them: a `sink` or `assign` that neither completed nor was cancelled or
///   released; a subscriber class of your own passed to `subscribe(_:)` that was not released.
public func leakedSubscriptions(
    isolation: isolated (any Actor)? = #isolation, in body: () async throws -> Void
) async rethrows -> [RippleDiagnostics.LiveSubscription] {
    try await RippleDiagnostics.withRegistry(isolation: isolation, body).alive
}

#if canImport(Testing)
/// Records a Swift Testing issue listing every subscription `body` made that is still alive when
/// it returns, with the chain that made it — the test for "my view model leaks its
/// `AnyCancellable`s".
///
/// ```swift
/// @Test func modelCleansUp() {
///     expectNoLeakedSubscriptions {
///         let model = SearchModel()
///         model.query.send("ripple")
///     }  // the model is gone here: its subscriptions must be too
/// }
/// // Issue: 1 subscription made in the body is still alive:
/// // #12 PassthroughSubject → Map → Sink: demand unlimited, 1 value, active, last on thread 0x…
/// ```
///
/// - Returns: The subscriptions still alive (empty when the expectation passed).
@discardableResult
public func expectNoLeakedSubscriptions(
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
) rethrows -> [RippleDiagnostics.LiveSubscription] {
    let leaks = try leakedSubscriptions(in: body)
    recordLeaks(leaks, sourceLocation: sourceLocation)
    return leaks
}

/// Records a Swift Testing issue listing every subscription the asynchronous `body` made that is
/// still alive when it returns (see ``expectNoLeakedSubscriptions(sourceLocation:_:)``).
///
/// - Returns: The subscriptions still alive (empty when the expectation passed).
@discardableResult
public func expectNoLeakedSubscriptions(
    isolation: isolated (any Actor)? = #isolation, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> Void
) async rethrows -> [RippleDiagnostics.LiveSubscription] {
    let leaks = try await leakedSubscriptions(isolation: isolation, in: body)
    recordLeaks(leaks, sourceLocation: sourceLocation)
    return leaks
}

private func recordLeaks(_ leaks: [RippleDiagnostics.LiveSubscription], sourceLocation: SourceLocation) {
    guard !leaks.isEmpty else { return }
    let count = leaks.count == 1 ? "1 subscription made in the body is" : "\(leaks.count) subscriptions made in the body are"
    let lines: String = leaks.map(\.description).joined(separator: "\n")
    Issue.record("\(count) still alive:\n\(lines)", sourceLocation: sourceLocation)
}
#endif
