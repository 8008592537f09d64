#if canImport(Dispatch)
import Dispatch
import Ripple

extension DispatchQueue {
    /// A scheduler with a dispatch queue's time and option types that runs every action at once,
    /// on the calling thread — for tests and previews of code that takes a queue-typed scheduler.
    ///
    /// ```swift
    /// let model = FeedModel(scheduler: DispatchQueue.immediate.eraseToAnyScheduler())
    /// ```
    public static var immediate: ImmediateSchedulerOf<DispatchQueue> {
        ImmediateSchedulerOf<DispatchQueue>(now: SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
    }
}

extension AnyScheduler
where SchedulerTimeType == DispatchQueue.SchedulerTimeType, SchedulerOptions == DispatchQueue.SchedulerOptions {
    /// The main queue, type-erased: `init(scheduler: AnySchedulerOf<DispatchQueue> = .main)`.
    public static var main: Self { DispatchQueue.main.eraseToAnyScheduler() }

    /// `DispatchQueue.immediate`, type-erased: pass `.immediate` where an
    /// `AnySchedulerOf<DispatchQueue>` is expected.
    public static var immediate: Self { DispatchQueue.immediate.eraseToAnyScheduler() }

    /// A global concurrent queue with the given quality of service, type-erased.
    public static func global(qos: DispatchQoS.QoSClass = .default) -> Self {
        DispatchQueue.global(qos: qos).eraseToAnyScheduler()
    }
}
#endif
