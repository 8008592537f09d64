/// Ripple's view of its own pipelines: which subscriptions are alive, what made them, and how to
/// draw them.
///
/// Off by default. While it is on — switched on with ``isEnabled``, or for the length of
/// ``withRegistry(_:)`` — every `sink`, `assign(to:on:)` and `assign(to:)` made, and every
/// subscriber passed to `subscribe(_:)`, is recorded in a registry until it ends, with the
/// publisher chain that made it. The registry holds descriptions and weak references only: it
/// never keeps a subscription alive, never wraps a subscriber, and what a subscriber or operator
/// observes is the same whether it is on or off.
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
/// What is recorded, and until when:
/// - `sink` (on any publisher): until it completes, is cancelled or is released, with its values
///   counted and the thread of the last one.
/// - `assign(to:on:)`, `assign(to:)` on a `@Published` property, and an explicit
///   ``Subscribers/Sink`` or ``Subscribers/Assign`` passed to `subscribe(_:)`: until it completes,
///   is cancelled or is released; demand unlimited, values not counted (`nil`).
/// - A subject subscribed to a publisher (`publisher.subscribe(subject)`, `AnySubscriber(subject)`):
///   until the subscription is cancelled or completes; demand and values unknown (`nil`).
/// - A class subscriber of your own passed to `subscribe(_:)`: held weakly, listed while it is
///   alive (its completion or cancel cannot be seen without wrapping it); demand, values and
///   thread unknown (`nil`).
/// - An ``AnySubscriber`` is recorded as the subscriber it wraps.
///
/// Not recorded: a subscriber with no object of its own (a struct, an ``AnySubscriber`` made of
/// closures), `for await` over `values`, and the inner subscriptions of Ripple's operators, which
/// show up as the chain of the subscriber they feed. A subscriber already recorded (a `sink` that
/// a publisher of yours passes on to `subscribe(_:)`) is not recorded again.
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
