/// How long to wait between reconnection attempts: doubling from `initial` up to `maximum`.
public struct ReconnectBackoff: Sendable, Equatable {
    /// The wait before the first retry.
    public var initial: Duration
    /// The longest wait between two retries.
    public var maximum: Duration

    /// A backoff doubling from `initial` to `maximum`.
    public init(initial: Duration = .milliseconds(50), maximum: Duration = .seconds(2)) {
        self.initial = initial
        self.maximum = maximum
    }

    /// The wait before retry number `attempt` (0 for the first retry).
    func delay(attempt: Int) -> Duration {
        var delay = initial
        for _ in 0..<min(attempt, 30) where delay < maximum { delay = delay * 2 }
        return min(delay, maximum)
    }
}
