/// Ripple's view of its own pipelines: which subscriptions are alive, what made them, and how to
/// draw them.
///
/// Off by default. While it is on — switched on with ``isEnabled``, or for the length of
/// ``withRegistry(_:)`` — every `sink` and `assign(to:on:)` made is recorded in a registry until it
/// ends (cancelled, completed, or released), with the publisher chain that made it. The registry
/// holds descriptions and weak references only: it never keeps a subscription alive, and what a
/// subscriber or operator observes is the same whether it is on or off.
///
/// ```swift
/// let subject = PassthroughSubject<Int, Never>()
/// let (cancellable, alive) = RippleDiagnostics.withRegistry {
///     subject.map { $0 * 2 }.sink { _ in }
/// }
/// print(alive.map(\.chain))
/// // Prints "["PassthroughSubject → Map → Sink"]"
/// cancellable.cancel()
/// ```
///
/// What is recorded: `sink` (on any publisher), `assign(to:on:)` and `assign(to:)` on a
/// `@Published` property. Subscribers passed to `subscribe(_:)` (your own, an explicit
/// ``Subscribers/Sink``, ``AnySubscriber``, a subject) and the operators' inner subscriptions are
/// not; the inner ones show up as the chain of the sink they feed.
public enum RippleDiagnostics {
    /// Whether Ripple records the subscriptions made from now on (`false` by default).
    ///
    /// Switching it off stops recording new ones; those already recorded stay listed in
    /// ``liveSubscriptions`` until they end.
    public static var isEnabled: Bool {
        get { SubscriptionRegistry.shared.isSwitchedOn }
        set { SubscriptionRegistry.shared.switchOn(newValue) }
    }

    /// The subscriptions recorded and still alive, oldest first.
    ///
    /// ```swift
    /// RippleDiagnostics.isEnabled = true
    /// let subject = PassthroughSubject<Int, Never>()
    /// let cancellable = subject.sink { _ in }
    /// print(RippleDiagnostics.liveSubscriptions.map(\.chain))
    /// // Prints "["PassthroughSubject → Sink"]" (in a process that made no other)
    /// RippleDiagnostics.isEnabled = false
    /// cancellable.cancel()
    /// ```
    public static var liveSubscriptions: [LiveSubscription] {
        SubscriptionRegistry.shared.snapshot(scope: nil).map(LiveSubscription.init)
    }

    /// Records the subscriptions `body` makes, and returns its result with those of them still
    /// alive when it returns — the leaks, if `body` was meant to clean up after itself.
    ///
    /// Only subscriptions made by `body` itself count — on its thread, or in tasks it creates that
    /// inherit its task-local values — not those another test running at the same time makes.
    /// Scopes nest.
    ///
    /// ```swift
    /// let subject = PassthroughSubject<Int, Never>()
    /// let (_, alive) = RippleDiagnostics.withRegistry {
    ///     _ = subject.sink { _ in }  // dropped at once: cancelled
    /// }
    /// print(alive.isEmpty)
    /// // Prints "true"
    /// ```
    ///
    /// - Returns: `body`'s result, and the subscriptions it made that are still alive.
    public static func withRegistry<Result>(
        _ body: () throws -> Result
    ) rethrows -> (result: Result, alive: [LiveSubscription]) {
        let scope = SubscriptionRegistry.shared.openScope()
        defer { SubscriptionRegistry.shared.closeScope() }
        let result = try DiagnosticsScope.task.withValue(scope, operation: body)
        return (result, SubscriptionRegistry.shared.snapshot(scope: scope.id).map(LiveSubscription.init))
    }

    /// Records the subscriptions the asynchronous `body` makes, and returns its result with those
    /// of them still alive when it returns (see ``withRegistry(_:)``).
    ///
    /// - Returns: `body`'s result, and the subscriptions it made that are still alive.
    public static func withRegistry<Result>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result
    ) async rethrows -> (result: Result, alive: [LiveSubscription]) {
        let scope = SubscriptionRegistry.shared.openScope()
        defer { SubscriptionRegistry.shared.closeScope() }
        let result = try await DiagnosticsScope.task.withValue(scope, operation: body, isolation: isolation)
        return (result, SubscriptionRegistry.shared.snapshot(scope: scope.id).map(LiveSubscription.init))
    }

    /// The live subscriptions as text, one line each.
    ///
    /// ```swift
    /// RippleDiagnostics.isEnabled = true
    /// let subject = PassthroughSubject<Int, Never>()
    /// let cancellable = subject.filter { $0 > 0 }.sink { _ in }
    /// subject.send(1)
    /// print(RippleDiagnostics.dump())
    /// // Prints "1 live subscription"
    /// // Prints "#1 PassthroughSubject → Filter → Sink: demand unlimited, 1 value, active, last on thread 0x…"
    /// RippleDiagnostics.isEnabled = false
    /// _ = cancellable
    /// ```
    public static func dump(_ subscriptions: [LiveSubscription] = liveSubscriptions) -> String {
        let count = subscriptions.count
        let header = "\(count) live subscription\(count == 1 ? "" : "s")"
        return ([header] + subscriptions.map(\.description)).joined(separator: "\n")
    }

    /// The live subscriptions as a graph: publishers and subscribers as nodes, with the
    /// subscriptions as the edges into the subscribers; render it with
    /// ``SubscriptionGraph/dot`` or ``SubscriptionGraph/mermaid``.
    public static func graph(_ subscriptions: [LiveSubscription] = liveSubscriptions) -> SubscriptionGraph {
        SubscriptionGraph(subscriptions)
    }
}
