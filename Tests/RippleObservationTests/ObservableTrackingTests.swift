import Dispatch
import Foundation
import Observation
import Ripple
import RippleObservation
import Testing

/// Rule 42b: toolchain `@Observable` models take part in Ripple's tracking exactly as `@Published`
/// properties do — property level, both phases, coalesced re-runs, events naming the property —
/// once `ObservationBridge.install()` has run. Every contract comes as a pair: the read property
/// fires, an unread one does not.
@Suite struct ObservableTrackingTests {
    @Observable final class Counter: @unchecked Sendable {
        var value = 0
        var other = 0
    }

    final class Basket: ObservableObject, @unchecked Sendable {
        @Published var apples = 0
    }

    init() {
        ObservationBridge.install()
    }

    @Test func withTrackingFiresForAReadPropertyNotForAnUnreadOne() {
        let counter = Counter()
        let events = Box<[TrackingEvent]>([])
        withTracking { _ = counter.value } onChange: { event in events.update { $0.append(event) } }
        counter.other = 1
        #expect(events.value.isEmpty)
        counter.value = 1
        counter.value = 2  // one-shot: already fired
        #expect(events.value.count == 1)
        let event = events.value.first
        #expect(event?.phase == .willSet)
        #expect(event?.keyPath == \Counter.value)
        #expect(event?.matches(\Counter.value) == true)
        #expect(event?.matches(\Counter.other) == false)
        #expect(event?.object == nil)
        #expect(event?.subjectType == Counter.self)
        #expect(event?.propertyName == "value")
        #expect(event.map(String.init(describing:)) == "willSet value of Counter")
    }

    @Test func willSetSeesTheOldValueDidSetTheNew() {
        let counter = Counter()
        let seen = Box<[String]>([])
        withTracking({ _ = counter.value }, phase: .willSet) { _ in seen.update { $0.append("willSet \(counter.value)") } }
        withTracking({ _ = counter.value }, phase: .didSet) { _ in seen.update { $0.append("didSet \(counter.value)") } }
        counter.value = 5
        #expect(seen.value == ["willSet 0", "didSet 5"])
    }

    @Test func trackIsContinuousUntilCancelled() {
        let counter = Counter()
        let seen = Box<[Int]>([])
        let token = track({ _ = counter.value }, phase: .didSet) { _ in seen.update { $0.append(counter.value) } }
        counter.other = 9
        counter.value = 1
        counter.value = 2
        token.cancel()
        counter.value = 3
        #expect(seen.value == [1, 2])
    }

    @Test func observeReRunsWithTheNewValueOnlyForWhatItRead() {
        let counter = Counter()
        let seen = Box<[Int]>([])
        let token = observe { let value = counter.value; seen.update { $0.append(value) } }
        counter.other = 1
        counter.value = 1
        counter.value = 2
        token.cancel()
        counter.value = 3
        #expect(seen.value == [0, 1, 2])
    }

    @Test func observeFollowsTheLatestRunsReads() {
        let counter = Counter()
        let seen = Box<[String]>([])
        let token = observe {
            let line = counter.value == 0 ? "value 0" : "other \(counter.other)"
            seen.update { $0.append(line) }
        }
        counter.other = 1  // not read yet: nothing
        counter.value = 1  // now reads `other`
        counter.other = 2
        #expect(seen.value == ["value 0", "other 1", "other 2"])
        token.cancel()
    }

    @Test func observeCoalescesABurstOnItsExecutor() {
        let counter = Counter()
        let jobs = Box<[@Sendable () -> Void]>([])
        let seen = Box<[Int]>([])
        let token = observe(on: .custom { job in jobs.update { $0.append(job) } }) {
            let value = counter.value
            seen.update { $0.append(value) }
        }
        counter.value = 1
        counter.value = 2
        counter.value = 3
        #expect(jobs.value.count == 1)
        for job in jobs.value { job() }
        #expect(seen.value == [0, 3])
        token.cancel()
    }

    @Test func aScopeMixingPublishedAndObservableSeesBoth() {
        let counter = Counter()
        let basket = Basket()
        let names = Box<[String]>([])
        let token = track({ _ = counter.value + basket.apples }, phase: .didSet) { event in
            names.update { $0.append(event.matches(\Counter.value) ? "value" : event.propertyName ?? "?") }
        }
        basket.apples = 1
        counter.value = 1
        counter.other = 1
        #expect(names.value == ["apples", "value"])
        token.cancel()
    }

    @Test func trackedPublisherAndTrackedValuesFollowAnObservableModel() async {
        let counter = Counter()
        let published = Box<[Int]>([])
        let cancellable = TrackedPublisher { counter.value * 10 }.sink { value in published.update { $0.append(value) } }
        counter.other = 1
        counter.value = 2
        #expect(published.value == [0, 20])
        cancellable.cancel()

        var iterator = TrackedValues { counter.value }.makeAsyncIterator()
        #expect(await iterator.next() == 2)
        counter.value = 3
        #expect(await iterator.next() == 3)
    }

    @Test func pushPullComparisonSeesObservableModelsByPullOnly() {
        let counter = Counter()
        let comparison = PushPullComparison()
        comparison.dependent("ValueView") { _ = counter.value }
        comparison.dependent("OtherView") { _ = counter.other }
        comparison.mutate("value += 1") { counter.value += 1 }
        let report = comparison.report
        #expect(report["ValueView"]?.pullReruns == 1)
        #expect(report["OtherView"]?.pullReruns == 0)
        #expect(report["ValueView"]?.pushReruns == 0)  // no objectWillChange to push with
    }

    /// Observation's rule: what `apply` writes does not fire its `onChange`.
    @Test func aScopesOwnWritesDoNotFireIt() {
        let counter = Counter()
        let events = Box<Int>(0)
        withTracking {
            let value = counter.value
            counter.value = value + 1
        } onChange: { _ in events.update { $0 += 1 } }
        #expect(events.value == 0)
        counter.value = 10
        #expect(events.value == 1)
    }

    @Test func anObserveBodyThatWritesWhatItReadsRunsOncePerOutsideChange() {
        let counter = Counter()
        let runs = Box<Int>(0)
        let token = observe {
            runs.update { $0 += 1 }
            counter.other += 1  // writes what it reads, every run
        }
        #expect(runs.value == 1)
        counter.other = 100
        #expect(runs.value == 2)
        #expect(counter.other == 101)
        token.cancel()
    }

    @Test func observationStillSeesReadsInsideARippleScope() {
        let counter = Counter()
        let fired = Box<Int>(0)
        withObservationTracking {
            withTracking { _ = counter.value } onChange: { _ in }
        } onChange: {
            fired.update { $0 += 1 }
        }
        counter.value = 1
        #expect(fired.value == 1)
    }

    @Test func aCancelledScopeDoesNotKeepTheModelAlive() {
        weak var weakCounter: Counter?
        do {
            let counter = Counter()
            weakCounter = counter
            let token = observe { _ = counter.value }
            counter.value = 1
            token.cancel()
        }
        #expect(weakCounter == nil)
    }

    /// Writers on several threads (an `@Observable` model's storage is not synchronized, so they take
    /// turns; each re-run happens inside its writer's turn) while Ripple's callbacks, re-arming and
    /// cancelling of Observation registrations run on all of them.
    @Test func writersOnSeveralThreadsAndRunsAreSafe() {
        let counter = Counter()
        let last = Box<Int>(-1)
        let turn = NSLock()
        let token = observe { let value = counter.value; last.update { $0 = value } }
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for step in 0..<2_000 { turn.withLock { counter.value = worker * 10_000 + step } }
        }
        counter.value = -5
        #expect(last.value == -5)
        token.cancel()
    }
}

/// `observe {}` cancelled while another thread writes what it read, with the bridge installed: every
/// scope then also registers with Observation, and the cancel undoes that registration while the
/// writer's change callbacks may be running. Memory safe, and final: no run starts after `cancel()`.
@Suite struct BridgedObserveCancelRaceTests {
    init() {
        ObservationBridge.install()
    }

    @Test(arguments: [false, true])
    func cancelRacingWritersIsMemorySafeAndFinal(observableModel: Bool) {
        let counter = ObservableTrackingTests.Counter()
        let basket = ObservableTrackingTests.Basket()
        let environment = ProcessInfo.processInfo.environment
        // `RIPPLE_RACE_ITERATIONS` sets the count for long runs on demand.
        let iterations =
            environment["RIPPLE_RACE_ITERATIONS"].flatMap { Int($0) }
            ?? (underSanitizer ? 1_000 : 10_000)
        // An @Observable model is not thread-safe: its reads and writes take turns (a recursive lock,
        // since a write re-runs the body on the writer's thread, inside the write).
        let access = NSRecursiveLock()
        let done = Box(false)
        let lateRuns = Box(0)
        let runs = Box(0)
        let writer = Thread {
            var step = 0
            while !done.value {
                step += 1
                if observableModel { access.withLock { counter.value = step } } else { basket.apples = step }
            }
        }
        writer.start()
        for _ in 0..<iterations {
            let cancelled = Box(false)
            let token = observe {
                if cancelled.value { lateRuns.update { $0 += 1 } }
                runs.update { $0 += 1 }
                _ = observableModel ? access.withLock { counter.value } : basket.apples
            }
            token.cancel()
            cancelled.update { $0 = true }
        }
        done.update { $0 = true }
        while !writer.isFinished { usleep(100) }
        #expect(lateRuns.value == 0)
        #expect(runs.value >= iterations)
    }
}

/// A value behind a lock, for the tests' callbacks.
final class Box<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) {
        stored = value
    }

    var value: Value {
        lock.withLock { stored }
    }

    func update(_ body: (inout Value) -> Void) {
        lock.withLock { body(&stored) }
    }
}

/// Whether this process runs under ThreadSanitizer or AddressSanitizer (their runtimes define
/// `__tsan_init` / `__asan_init`; looked up in every loaded image), or `RIPPLE_SANITIZED` is set.
private let underSanitizer =
    ProcessInfo.processInfo.environment["RIPPLE_SANITIZED"] != nil
    || dlsym(UnsafeMutableRawPointer(bitPattern: rtldDefault), "__tsan_init") != nil
    || dlsym(UnsafeMutableRawPointer(bitPattern: rtldDefault), "__asan_init") != nil

#if canImport(Darwin)
private let rtldDefault = -2
#else
private let rtldDefault = 0
#endif
