/// A protocol representing the connection of a subscriber to a publisher.
///
/// Subscriptions are class-like: they have identity, and cancelling one frees whatever the
/// publisher allocated for that subscriber.
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
    /// Tells a publisher that it may send more values to the subscriber.
    ///
    /// Demand accumulates: every request adds to what is outstanding.
    func request(_ demand: Subscribers.Demand)
}

/// A namespace for symbols related to subscriptions.
public enum Subscriptions {
    /// Returns the "empty" subscription: a single shared value whose `request` and `cancel` do nothing.
    ///
    /// Use it when a publisher must send a subscription but will never produce values, for example
    /// right before an immediate completion.
    public static var empty: any Subscription {
        EmptySubscription.shared
    }
}

/// The one shared empty subscription.
@usableFromInline
final class EmptySubscription: Subscription, CustomStringConvertible, Sendable {
    @usableFromInline
    static let shared = EmptySubscription()

    private init() {}

    @usableFromInline
    func request(_ demand: Subscribers.Demand) {}
    @usableFromInline
    func cancel() {}

    @usableFromInline
    var description: String { "Empty" }
}
