/// The shared frame of the time operators (debounce, throttle, delay, timeout, collect by time):
/// ``OperatorInner`` plus the scheduler, a downstream demand counted here, and delivery that drops
/// a value when the downstream has no demand.
///
/// Deliveries happen from scheduled actions; like Combine, the operators expect a serial
/// scheduler for ordered, non-overlapping delivery.
class TimedInner<Downstream: Subscriber, Context: Scheduler, Extra>: OperatorInner<Downstream, Extra> {
    let scheduler: Context
    let options: Context.SchedulerOptions?

    init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?, extra: Extra, name: String) {
        self.scheduler = scheduler
        self.options = options
        super.init(downstream: downstream, extra: extra, name: name)
    }

    /// Time operators ask for everything and decide what to deliver themselves.
    override var initialUpstreamDemand: Subscribers.Demand { .unlimited }

    /// Delivers `value` if the downstream is still there and has demand (otherwise it is dropped);
    /// returns whether it was delivered.
    @discardableResult
    func deliver(_ value: Downstream.Input) -> Bool {
        lock.lock()
        guard let downstream = state.downstream, state.demand > 0 else {
            lock.unlock()
            return false
        }
        state.demand -= 1
        lock.unlock()
        let more = downstream.receive(value)
        if more > 0 { lock.withLock { state.demand += more } }
        return true
    }

    /// Counts the downstream's demand (the upstream was asked for everything). A request for
    /// `.none` counts nothing and does not trap: no test recorded against Combine shows a time
    /// operator trapping on it (its recorded tests pass `.none` through `delay`, `timeout`,
    /// `measureInterval` and ignore it in `throttle`), and OpenCombine's `debounce`, which follows
    /// Combine's, takes it.
    override func request(_ demand: Subscribers.Demand) {
        countDemand(demand)
    }

    /// Adds the downstream's demand to the count; `.none` adds nothing.
    final func countDemand(_ demand: Subscribers.Demand) {
        lock.withLock { state.demand += demand }
    }
}
