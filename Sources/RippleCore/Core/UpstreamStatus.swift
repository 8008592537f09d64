/// Where a subscriber stands with its upstream: the one decision every subscriber makes the same
/// way (a second subscription, or one after termination, is cancelled).
@usableFromInline
package enum UpstreamStatus {
    case awaitingSubscription
    case subscribed(any Subscription)
    case terminal

    /// Takes `subscription` if none came before and the subscriber has not terminated; otherwise
    /// returns `false`, and the caller cancels it (after unlocking).
    @inlinable
    package mutating func accept(_ subscription: any Subscription) -> Bool {
        guard case .awaitingSubscription = self else { return false }
        self = .subscribed(subscription)
        return true
    }

    /// The current subscription, if subscribed.
    @inlinable
    package var subscription: (any Subscription)? {
        if case .subscribed(let subscription) = self { return subscription }
        return nil
    }

    /// Whether no subscription has arrived yet (and the subscriber has not terminated).
    @inlinable
    var isAwaitingSubscription: Bool {
        if case .awaitingSubscription = self { return true }
        return false
    }

    @inlinable
    var isTerminal: Bool {
        if case .terminal = self { return true }
        return false
    }

    /// Marks the subscriber terminated; returns the subscription it had, for the caller to cancel.
    @inlinable
    package mutating func terminate() -> (any Subscription)? {
        let previous = subscription
        self = .terminal
        return previous
    }
}
