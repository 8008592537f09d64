// Compiled twice: as RippleRunner (against Ripple) and, through a symlink, as OpenCombineRunner
// (against OpenCombine, with OPENCOMBINE defined). Keep to the API both share: the same text
// interprets a pipeline description with either library.
import ConformanceModel

#if OPENCOMBINE
import OpenCombine
#else
import Ripple
import RippleTesting
#endif

#if OPENCOMBINE
/// The virtual-time scheduler of OpenCombine's runs: OpenCombine ships none (its
/// `VirtualTimeScheduler` is a test helper), so this one keeps RippleTesting's `TestScheduler`'s
/// rules, which Ripple's runs use: nothing runs until the clock is moved; actions due at the same
/// instant run in the order they were scheduled; `schedule(options:)` queues for the current
/// instant; the clock moves to each action's instant as it runs; an action scheduled within an
/// `advance` for an instant it reaches runs in that `advance`.
fileprivate final class VirtualScheduler: Scheduler {
    struct SchedulerTimeType: Strideable {
        var nanoseconds: Int
        func distance(to other: Self) -> Stride { Stride(nanoseconds: other.nanoseconds - nanoseconds) }
        func advanced(by n: Stride) -> Self { Self(nanoseconds: nanoseconds + n.magnitude) }

        struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric {
            var magnitude: Int
            init(nanoseconds: Int) { magnitude = nanoseconds }
            init(integerLiteral value: Int) { magnitude = value * 1_000_000_000 }
            init?<T: BinaryInteger>(exactly source: T) {
                guard let value = Int(exactly: source) else { return nil }
                self.init(integerLiteral: value)
            }
            static func < (lhs: Self, rhs: Self) -> Bool { lhs.magnitude < rhs.magnitude }
            static func + (lhs: Self, rhs: Self) -> Self { Self(nanoseconds: lhs.magnitude + rhs.magnitude) }
            static func - (lhs: Self, rhs: Self) -> Self { Self(nanoseconds: lhs.magnitude - rhs.magnitude) }
            static func * (lhs: Self, rhs: Self) -> Self { Self(nanoseconds: lhs.magnitude * rhs.magnitude) }
            static func += (lhs: inout Self, rhs: Self) { lhs.magnitude += rhs.magnitude }
            static func -= (lhs: inout Self, rhs: Self) { lhs.magnitude -= rhs.magnitude }
            static func *= (lhs: inout Self, rhs: Self) { lhs.magnitude *= rhs.magnitude }
            static func seconds(_ s: Int) -> Self { Self(nanoseconds: s * 1_000_000_000) }
            static func seconds(_ s: Double) -> Self { Self(nanoseconds: Int(s * 1_000_000_000)) }
            static func milliseconds(_ ms: Int) -> Self { Self(nanoseconds: ms * 1_000_000) }
            static func microseconds(_ us: Int) -> Self { Self(nanoseconds: us * 1_000) }
            static func nanoseconds(_ ns: Int) -> Self { Self(nanoseconds: ns) }
        }
    }
    typealias SchedulerOptions = Never

    private struct Pending {
        var date: SchedulerTimeType
        var sequence: Int
        var id: Int
        var interval: SchedulerTimeType.Stride?
        var action: () -> Void
    }
    private var pending: [Pending] = []
    private var nextSequence = 0
    private(set) var now = SchedulerTimeType(nanoseconds: 0)
    var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }

    func schedule(options: Never?, _ action: @escaping () -> Void) {
        enqueue(now, action)
    }

    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: Never?,
        _ action: @escaping () -> Void
    ) {
        enqueue(date, action)
    }

    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: Never?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        let id = enqueue(date, interval: interval, action)
        return AnyCancellable { [weak self] in self?.pending.removeAll { $0.id == id } }
    }

    @discardableResult
    private func enqueue(
        _ date: SchedulerTimeType, interval: SchedulerTimeType.Stride? = nil, _ action: @escaping () -> Void
    ) -> Int {
        let sequence = nextSequence
        pending.append(Pending(date: date, sequence: sequence, id: sequence, interval: interval, action: action))
        nextSequence += 1
        return sequence
    }

    func advance(by stride: SchedulerTimeType.Stride) {
        let target = now.advanced(by: stride)
        while let index = pending.indices.min(by: {
            let a = pending[$0], b = pending[$1]
            return a.date < b.date || (a.date == b.date && a.sequence < b.sequence)
        }), pending[index].date <= target {
            let item = pending.remove(at: index)
            if now < item.date { now = item.date }
            if let interval = item.interval {
                // A repeating action is put back for its next instant, before it runs.
                pending.append(
                    Pending(
                        date: item.date.advanced(by: interval), sequence: nextSequence, id: item.id,
                        interval: interval, action: item.action))
                nextSequence += 1
            }
            item.action()
        }
        if now < target { now = target }
    }
}

extension VirtualScheduler.SchedulerTimeType: Comparable {
    fileprivate static func < (lhs: Self, rhs: Self) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
}
#else
/// RippleTesting's virtual-time scheduler, on a clock of its own starting at zero.
fileprivate typealias VirtualScheduler = TestScheduler<VirtualTime, Never>
#endif

fileprivate func milliseconds(_ stride: VirtualScheduler.SchedulerTimeType.Stride) -> Int { stride.magnitude / 1_000_000 }

/// Runs one pipeline description and returns its event history.
public enum Runner {
    /// - Parameter defect: a deliberate one-line defect to plant in this run (the oracle's
    ///   self-test); the driver plants defects only in Ripple's runs.
    public static func run(_ c: Case, planting defect: PlantedDefect? = nil) -> [String] {
        let log = EventLog()
        let run = Run(log: log, defect: defect)
        run.execute(c)
        return log.events
    }
}

private typealias Pipe = AnyPublisher<Int, any Error>

private func demand(_ spec: DemandSpec) -> Subscribers.Demand {
    guard let n = spec else { return .unlimited }
    return .max(n)
}

private func describe(_ demand: Subscribers.Demand) -> String {
    guard let n = demand.max else { return "unlimited" }
    return n == 0 ? "none" : "max(\(n))"
}

private func describe(_ completion: Subscribers.Completion<any Error>) -> String {
    switch completion {
    case .finished: return "finished"
    case .failure(let error): return "failure(\(error))"
    }
}

/// Everything one run creates, so it can be released at the end.
private final class Run {
    let log: EventLog
    let defect: PlantedDefect?
    var probes: [AnyObject] = []
    var probeCount = 0
    var zipCount = 0
    /// Whether inner publishers are probed (`Case.probeInners`), and how many such probes were made.
    var probeInners = false
    var innerCount = 0
    /// The virtual-time scheduler of a case with time operators (its clock stamps the log).
    var scheduler: VirtualScheduler?
    /// `debounceEmitsFirst`: the first value of the burst debounce is holding.
    var burstFirst: Int?

    init(log: EventLog, defect: PlantedDefect?) {
        self.log = log
        self.defect = defect
    }

    /// `p` with `defect` planted in it, when it is the defect this run plants.
    func planting(_ planted: PlantedDefect, in p: Pipe) -> Pipe {
        guard defect == planted else { return p }
        let tamper = Tamper(upstream: p, defect: planted, run: self)
        return tamper.eraseToAnyPublisher()
    }

    func execute(_ c: Case) {
        if c.ops.contains(where: \.isTimed) {
            let scheduler = VirtualScheduler()
            self.scheduler = scheduler
            log.clock = { scheduler.now.nanoseconds / 1_000_000 }
        }
        var passthrough: PassthroughSubject<Int, any Error>?
        var current: CurrentValueSubject<Int, any Error>?
        var objectWillChange: ObservableObjectPublisher?
        var pipe: Pipe
        switch c.source {
        case .just(let v):
            pipe = Just(v).setFailureType(to: (any Error).self).eraseToAnyPublisher()
        case .sequence(let vs):
            pipe = Publishers.Sequence<[Int], any Error>(sequence: vs).eraseToAnyPublisher()
            pipe = planting(.sequenceWithholdsFinished, in: pipe)
        case .empty(let immediately):
            pipe = Empty<Int, any Error>(completeImmediately: immediately).eraseToAnyPublisher()
        case .fail:
            pipe = Fail<Int, any Error>(error: TestError.source).eraseToAnyPublisher()
        case .passthrough:
            let subject = PassthroughSubject<Int, any Error>()
            passthrough = subject
            pipe = subject.eraseToAnyPublisher()
        case .currentValue(let v):
            let subject = CurrentValueSubject<Int, any Error>(v)
            current = subject
            pipe = subject.eraseToAnyPublisher()
        case .future(let v):
            pipe = Future<Int, any Error> { $0(.success(v)) }.eraseToAnyPublisher()
        case .deferredJust(let v):
            pipe = Deferred { Just(v).setFailureType(to: (any Error).self) }.eraseToAnyPublisher()
        case .record(let vs):
            pipe = Record<Int, any Error>(output: vs, completion: .finished).eraseToAnyPublisher()
        case .objectWillChange:
            let publisher = ObservableObjectPublisher()
            objectWillChange = publisher
            pipe = publisher.map { _ in 0 }.setFailureType(to: (any Error).self).eraseToAnyPublisher()
        case .failingFuture:
            pipe = Future<Int, any Error> { $0(.failure(TestError.source)) }.eraseToAnyPublisher()
        }
        probeInners = c.probeInners
        pipe = planting(.cancelNeverReachesTheSource, in: pipe)
        for op in c.ops {
            pipe = apply(op, to: pipe)
        }
        var second: AnyCancellable?
        // T's events go to a log of their own, added after "end": the order in which a subject
        // serves several subscribers is not defined (Combine documents none; OpenCombine's
        // subjects keep them in a Set), so only each subscriber's own history is compared.
        let secondLog = EventLog()
        secondLog.clock = log.clock
        if c.secondSubscriber {
            let log = secondLog
            let subject: AnyPublisher<Int, any Error>? =
                passthrough?.eraseToAnyPublisher() ?? current?.eraseToAnyPublisher()
            second = subject?.sink(
                receiveCompletion: { log.add("T completion \(describe($0))") },
                receiveValue: { log.add("T value \($0)") })
        }
        let subscriber = Recorder(plan: c.plan, log: log)
        let relayed: AnyCancellable?
        var published: PublishedTarget?
        var watch: AnyCancellable?
        var keptRelay: PassthroughSubject<Int, any Error>?
        switch c.wrap {
        case .none:
            pipe.subscribe(subscriber)
            relayed = nil
        case .anySubscriber:
            pipe.subscribe(AnySubscriber(subscriber))
            relayed = nil
        case .subject:
            let relay = PassthroughSubject<Int, any Error>()
            relay.subscribe(subscriber)
            relayed = pipe.subscribe(relay)
        case .sink:
            let log = self.log
            relayed = pipe.sink(
                receiveCompletion: { log.add("S completion \(describe($0))") },
                receiveValue: { log.add("S value \($0)") })
        case .assign:
            // Only the Assign subscriber holds the object: its release is logged ("A released").
            relayed = pipe.replaceError(with: -1).assign(to: \.value, on: AssignTarget(log: log))
        case .assignPublished:
            (published, watch) = assignPublished(pipe)
            relayed = nil
        case .anySubscriberSubject:
            let relay = PassthroughSubject<Int, any Error>()
            relay.subscribe(subscriber)
            pipe.subscribe(AnySubscriber(relay))
            keptRelay = relay
            relayed = nil
        }
        if defect == .subjectReleasedEarly {
            // The subject gone once subscribed: the script's sends and completions reach nobody.
            passthrough = nil
            current = nil
            objectWillChange = nil
        }
        for step in c.script {
            log.add("do \(step)")
            switch step {
            case .send(let v):
                passthrough?.send(v)
                current?.send(v)
                objectWillChange?.send()
            case .finish:
                passthrough?.send(completion: .finished)
                current?.send(completion: .finished)
            case .fail:
                passthrough?.send(completion: .failure(TestError.subject))
                current?.send(completion: .failure(TestError.subject))
            case .request(let d):
                subscriber.subscription?.request(demand(d))
            case .cancel:
                subscriber.subscription?.cancel()
                if c.wrap == .sink || c.wrap == .assign { relayed?.cancel() }
            case .advance(let ms):
                scheduler?.advance(by: .milliseconds(ms))
            }
        }
        log.add("end")
        if published != nil { published = nil }  // logs "A released"
        withExtendedLifetime(watch) {}
        withExtendedLifetime(relayed) {}
        withExtendedLifetime(keptRelay) {}
        withExtendedLifetime(second) {}
        for event in secondLog.events { log.add(event) }
        // Break the cycles a run leaves (probes and the recorder keep what they were given).
        subscriber.subscription = nil
        for case let probe as Releasable in probes { probe.release() }
        probes = []
    }

    /// `pipe.replaceError(with: -1).assign(to: &object.$value)`, and a sink logging what
    /// `object.$value` publishes.
    func assignPublished(_ pipe: Pipe) -> (PublishedTarget, AnyCancellable) {
        let object = PublishedTarget(log: log)
        let log = self.log
        let watch = object.$value.sink { log.add("A value \($0)") }
        pipe.replaceError(with: -1).assign(to: &object.$value)
        return (object, watch)
    }

    /// `inner`, probed as "<prefix><n>" when the case probes inner publishers.
    func probingInner(_ inner: Pipe, _ prefix: String) -> Pipe {
        guard probeInners else { return inner }
        innerCount += 1
        return Probe(upstream: inner, id: innerCount, run: self, prefix: prefix).eraseToAnyPublisher()
    }

    func apply(_ op: Op, to p: Pipe) -> Pipe {
        switch op {
        case .probe:
            probeCount += 1
            return Probe(upstream: p, id: probeCount, run: self).eraseToAnyPublisher()
        case .map(let a):
            return p.map { $0 + a }.eraseToAnyPublisher()
        case .tryMap(let t):
            return p.tryMap { v in
                if v == t { throw TestError.thrown(v) }
                return v
            }.eraseToAnyPublisher()
        case .filter(let m):
            return p.filter { $0 % m != 0 }.eraseToAnyPublisher()
        case .tryFilter(let m, let t):
            return p.tryFilter { v in
                if v == t { throw TestError.thrown(v) }
                return v % m != 0
            }.eraseToAnyPublisher()
        case .compactMap(let n):
            return p.compactMap { $0 == n ? nil : $0 }.eraseToAnyPublisher()
        case .tryCompactMap(let n, let t):
            return p.tryCompactMap { v in
                if v == t { throw TestError.thrown(v) }
                return v == n ? nil : v
            }.eraseToAnyPublisher()
        case .dropFirst(let n):
            return p.dropFirst(n).eraseToAnyPublisher()
        case .dropWhile(let b):
            return p.drop(while: { $0 < b }).eraseToAnyPublisher()
        case .tryDropWhile(let b, let t):
            return p.tryDrop(while: { v in
                if v == t { throw TestError.thrown(v) }
                return v < b
            }).eraseToAnyPublisher()
        case .prefix(let n):
            return p.prefix(n).eraseToAnyPublisher()
        case .prefixWhile(let b):
            return p.prefix(while: { $0 < b }).eraseToAnyPublisher()
        case .tryPrefixWhile(let b, let t):
            return p.tryPrefix(while: { v in
                if v == t { throw TestError.thrown(v) }
                return v < b
            }).eraseToAnyPublisher()
        case .outputAt(let i):
            return p.output(at: i).eraseToAnyPublisher()
        case .outputIn(let a, let b):
            return p.output(in: a..<b).eraseToAnyPublisher()
        case .first:
            return p.first().eraseToAnyPublisher()
        case .firstWhere(let a):
            return p.first(where: { $0 > a }).eraseToAnyPublisher()
        case .tryFirstWhere(let a, let t):
            return p.tryFirst(where: { v in
                if v == t { throw TestError.thrown(v) }
                return v > a
            }).eraseToAnyPublisher()
        case .last:
            return p.last().eraseToAnyPublisher()
        case .lastWhere(let a):
            return p.last(where: { $0 > a }).eraseToAnyPublisher()
        case .tryLastWhere(let a, let t):
            return p.tryLast(where: { v in
                if v == t { throw TestError.thrown(v) }
                return v > a
            }).eraseToAnyPublisher()
        case .removeDuplicates:
            return p.removeDuplicates().eraseToAnyPublisher()
        case .tryRemoveDuplicates(let t):
            return p.tryRemoveDuplicates(by: { a, b in
                if b == t { throw TestError.thrown(b) }
                return a == b
            }).eraseToAnyPublisher()
        case .scan(let i):
            return p.scan(i, +).eraseToAnyPublisher()
        case .tryScan(let i, let t):
            return p.tryScan(i) { a, b in
                if b == t { throw TestError.thrown(b) }
                return a + b
            }.eraseToAnyPublisher()
        case .reduce(let i):
            return p.reduce(i, +).eraseToAnyPublisher()
        case .tryReduce(let i, let t):
            return p.tryReduce(i) { a, b in
                if b == t { throw TestError.thrown(b) }
                return a + b
            }.eraseToAnyPublisher()
        case .count:
            return p.count().eraseToAnyPublisher()
        case .min:
            return p.min().eraseToAnyPublisher()
        case .max:
            return p.max().eraseToAnyPublisher()
        case .tryMin(let t):
            return p.tryMin(by: { a, b in
                if b == t { throw TestError.thrown(b) }
                return a < b
            }).eraseToAnyPublisher()
        case .tryMax(let t):
            return p.tryMax(by: { a, b in
                if b == t { throw TestError.thrown(b) }
                return a < b
            }).eraseToAnyPublisher()
        case .collect:
            return p.collect().map { $0.reduce(0, +) }.eraseToAnyPublisher()
        case .collectCount(let n):
            return p.collect(n).map { $0.reduce(0, +) }.eraseToAnyPublisher()
        case .contains(let v):
            return p.contains(v).map { $0 ? 1 : 0 }.eraseToAnyPublisher()
        case .containsWhere(let a):
            return p.contains(where: { $0 > a }).map { $0 ? 1 : 0 }.eraseToAnyPublisher()
        case .tryContainsWhere(let a, let t):
            return p.tryContains(where: { v in
                if v == t { throw TestError.thrown(v) }
                return v > a
            }).map { $0 ? 1 : 0 }.eraseToAnyPublisher()
        case .allSatisfy(let b):
            return p.allSatisfy { $0 < b }.map { $0 ? 1 : 0 }.eraseToAnyPublisher()
        case .tryAllSatisfy(let b, let t):
            return p.tryAllSatisfy { v in
                if v == t { throw TestError.thrown(v) }
                return v < b
            }.map { $0 ? 1 : 0 }.eraseToAnyPublisher()
        case .ignoreOutput:
            return p.ignoreOutput().map(absurd).eraseToAnyPublisher()
        case .replaceEmpty(let v):
            return planting(.replaceEmptyNeverCompletes, in: p.replaceEmpty(with: v).eraseToAnyPublisher())
        case .replaceError(let v):
            return p.replaceError(with: v).setFailureType(to: (any Error).self).eraseToAnyPublisher()
        case .mapError:
            return p.mapError { $0 }.eraseToAnyPublisher()
        case .handleEvents:
            return p.handleEvents(
                receiveSubscription: { _ in }, receiveOutput: { _ in }, receiveCompletion: { _ in },
                receiveCancel: {}, receiveRequest: { _ in }
            ).eraseToAnyPublisher()
        case .eraseToAnyPublisher:
            return p.eraseToAnyPublisher()
        case .receiveOnImmediate:
            return p.receive(on: ImmediateScheduler.shared).eraseToAnyPublisher()
        case .subscribeOnImmediate:
            return p.subscribe(on: ImmediateScheduler.shared).eraseToAnyPublisher()
        case .catchJust(let v):
            return p.catch { [unowned self] _ in
                self.probingInner(Just(v).setFailureType(to: (any Error).self).eraseToAnyPublisher(), "PC")
            }.eraseToAnyPublisher()
        case .retry(let n):
            return p.retry(n).eraseToAnyPublisher()
        case .append(let vs):
            if probeInners {
                // append(vs) is a concatenation with vs.publisher: the same operator, its second
                // publisher probed.
                return p.append(probingInner(Publishers.Sequence<[Int], any Error>(sequence: vs).eraseToAnyPublisher(), "PA"))
                    .eraseToAnyPublisher()
            }
            return p.append(vs).eraseToAnyPublisher()
        case .prepend(let vs):
            return p.prepend(vs).eraseToAnyPublisher()
        case .mapKeyPath:
            let keyPath: KeyPath<Int, Int> = \.self
            return p.map(keyPath).eraseToAnyPublisher()
        case .zipWith(let vs):
            // The partner is probed ("PZ1"…): what zip asks of it is compared too.
            zipCount += 1
            let partner = Probe(
                upstream: Publishers.Sequence<[Int], any Error>(sequence: vs).eraseToAnyPublisher(), id: zipCount,
                run: self, prefix: "PZ")
            let zipped = p.zip(partner).map { $0 + $1 }.eraseToAnyPublisher()
            return planting(.zipLosesReturnedDemand, in: zipped)
        case .flatMapJust:
            if probeInners {
                // Each inner publisher probed ("PF…"): what flatMap asks of its children and cancels.
                return p.flatMap { [unowned self] v in
                    self.probingInner(Just(v + 1).setFailureType(to: (any Error).self).eraseToAnyPublisher(), "PF")
                }.eraseToAnyPublisher()
            }
            return p.flatMap { Just($0 + 1).setFailureType(to: (any Error).self) }.eraseToAnyPublisher()
        case .flatMapOneAtATime(let vs):
            if probeInners {
                return p.flatMap(maxPublishers: .max(1)) { [unowned self] _ in
                    self.probingInner(Publishers.Sequence<[Int], any Error>(sequence: vs).eraseToAnyPublisher(), "PF")
                }.eraseToAnyPublisher()
            }
            return p.flatMap(maxPublishers: .max(1)) { _ in Publishers.Sequence<[Int], any Error>(sequence: vs) }
                .eraseToAnyPublisher()
        case .switchToLatestJust:
            return p.map { Just($0).setFailureType(to: (any Error).self) }.switchToLatest().eraseToAnyPublisher()
        case .bufferByRequest(let n):
            return p.buffer(size: n, prefetch: .byRequest, whenFull: .dropOldest).eraseToAnyPublisher()
        case .bufferKeepFull(let n):
            return p.buffer(size: n, prefetch: .keepFull, whenFull: .dropNewest).eraseToAnyPublisher()
        case .prefixUntilOutputEmpty:
            return p.prefix(untilOutputFrom: Empty<Int, Never>()).eraseToAnyPublisher()
        case .dropUntilOutputJust:
            return p.drop(untilOutputFrom: Just(0).setFailureType(to: (any Error).self)).eraseToAnyPublisher()
        case .bufferCustomError(let n):
            return p.buffer(size: n, prefetch: .keepFull, whenFull: .customError { TestError.subject })
                .eraseToAnyPublisher()
        case .share:
            return p.share().eraseToAnyPublisher()
        case .multicastAutoconnect:
            return p.multicast { PassthroughSubject<Int, any Error>() }.autoconnect().eraseToAnyPublisher()
        case .debounce(let ms):
            let scheduler = self.scheduler!
            if defect == .debounceEmitsFirst {
                // The defect: every value of a burst stands for the burst's first one, so the
                // value debounce emits is the first of the burst, not the last.
                let before = Tamper(upstream: p, defect: .debounceEmitsFirst, run: self, role: .before)
                let debounced = before.debounce(for: .milliseconds(ms), scheduler: scheduler).eraseToAnyPublisher()
                return Tamper(upstream: debounced, defect: .debounceEmitsFirst, run: self, role: .after)
                    .eraseToAnyPublisher()
            }
            return p.debounce(for: .milliseconds(ms), scheduler: scheduler).eraseToAnyPublisher()
        case .throttle(let ms, let latest):
            return p.throttle(for: .milliseconds(ms), scheduler: scheduler!, latest: latest).eraseToAnyPublisher()
        case .delay(let ms):
            return p.delay(for: .milliseconds(ms), scheduler: scheduler!).eraseToAnyPublisher()
        case .timeout(let ms, let custom):
            if custom {
                return p.timeout(.milliseconds(ms), scheduler: scheduler!, customError: { TestError.subject })
                    .eraseToAnyPublisher()
            }
            return p.timeout(.milliseconds(ms), scheduler: scheduler!).eraseToAnyPublisher()
        case .measureInterval:
            return p.measureInterval(using: scheduler!).map { milliseconds($0) }.eraseToAnyPublisher()
        case .receiveOnVirtual:
            return p.receive(on: scheduler!).eraseToAnyPublisher()
        case .subscribeOnVirtual:
            return p.subscribe(on: scheduler!).eraseToAnyPublisher()
        }
    }
}

private func absurd(_ never: Never) -> Int {}

/// A transparent stage with one deliberate defect (`PlantedDefect`): everything passes through
/// unchanged but for the one line the defect names. It describes itself as the subscription it
/// wraps, so it is invisible in a history but for its defect.
private struct Tamper: Publisher {
    typealias Output = Int
    typealias Failure = any Error

    enum Role { case only, before, after }

    let upstream: Pipe
    let defect: PlantedDefect
    let run: Run
    var role = Role.only

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == any Error {
        let inner = TamperInner(downstream: subscriber, defect: defect, run: run, role: role)
        run.probes.append(inner)
        upstream.subscribe(inner)
    }
}

private final class TamperInner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
    Releasable
where Downstream.Input == Int, Downstream.Failure == any Error {
    typealias Input = Int
    typealias Failure = any Error

    var downstream: Downstream?
    var upstream: (any Subscription)?
    let defect: PlantedDefect
    unowned let run: Run
    let role: Tamper.Role

    init(downstream: Downstream, defect: PlantedDefect, run: Run, role: Tamper.Role) {
        self.downstream = downstream
        self.defect = defect
        self.run = run
        self.role = role
    }

    var description: String { upstream.map { String(describing: $0) } ?? "Tamper" }

    func release() {
        downstream = nil
        upstream = nil
    }

    func receive(subscription: any Subscription) {
        upstream = subscription
        downstream?.receive(subscription: self)
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        var input = input
        if defect == .debounceEmitsFirst {
            switch role {
            case .before:
                // The defect: the burst's first value stands for every later one.
                if let first = run.burstFirst { input = first } else { run.burstFirst = input }
            case .after, .only: run.burstFirst = nil  // debounce emitted: a new burst starts
            }
        }
        let more = downstream?.receive(input) ?? .none
        if defect == .zipLosesReturnedDemand { return .none }  // the defect
        return more
    }

    func receive(completion: Subscribers.Completion<any Error>) {
        if case .finished = completion,
            defect == .sequenceWithholdsFinished || defect == .replaceEmptyNeverCompletes
        {
            return  // the defect
        }
        downstream?.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        upstream?.request(demand)
    }

    func cancel() {
        if defect == .cancelNeverReachesTheSource { return }  // the defect
        upstream?.cancel()
    }
}

private protocol Releasable: AnyObject {
    func release()
}

/// A transparent publisher that logs what passes through it and what is asked of it: what the
/// operator below it (or the source) sees from the operator above it.
private struct Probe: Publisher {
    typealias Output = Int
    typealias Failure = any Error

    let upstream: Pipe
    let id: Int
    let run: Run
    /// "P" for the probes the case places; "PZ" for the one on each zip's partner (a probe to every
    /// rule that looks at probes, numbered apart).
    var prefix = "P"

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == any Error {
        let inner = ProbeInner(downstream: subscriber, name: "\(prefix)\(id)", log: run.log)
        run.probes.append(inner)
        upstream.subscribe(inner)
    }
}

private final class ProbeInner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible, Releasable
where Downstream.Input == Int, Downstream.Failure == any Error {
    typealias Input = Int
    typealias Failure = any Error

    var downstream: Downstream?
    var upstream: (any Subscription)?
    let name: String
    let log: EventLog

    init(downstream: Downstream, name: String, log: EventLog) {
        self.downstream = downstream
        self.name = name
        self.log = log
    }

    var description: String { "Probe" }

    func release() {
        downstream = nil
        upstream = nil
    }

    func receive(subscription: any Subscription) {
        log.add("\(name) got subscription \(String(describing: subscription))")
        upstream = subscription
        downstream?.receive(subscription: self)
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        log.add("\(name) value \(input)")
        let more = downstream?.receive(input) ?? .none
        log.add("\(name) value \(input) returned \(describe(more))")
        return more
    }

    func receive(completion: Subscribers.Completion<any Error>) {
        log.add("\(name) completion \(describe(completion))")
        downstream?.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        log.add("\(name) request \(describe(demand))")
        upstream?.request(demand)
    }

    func cancel() {
        log.add("\(name) cancel")
        upstream?.cancel()
    }
}

/// The subscriber at the end of the chain: it follows its plan and logs everything it sees.
private final class Recorder: Subscriber {
    typealias Input = Int
    typealias Failure = any Error

    let plan: SubscriberPlan
    let log: EventLog
    var subscription: (any Subscription)?
    var values = 0

    init(plan: SubscriberPlan, log: EventLog) {
        self.plan = plan
        self.log = log
    }

    func receive(subscription: any Subscription) {
        log.add("S got subscription \(String(describing: subscription))")
        self.subscription = subscription
        if plan.cancelInReceiveSubscription {
            log.add("S cancels in receive(subscription:)")
            subscription.cancel()
        }
        if plan.requestsNoneFirst {
            log.add("S requests none in receive(subscription:)")
            subscription.request(.max(0))
        }
        if plan.initial != 0 {
            log.add("S requests \(describe(demand(plan.initial))) in receive(subscription:)")
            subscription.request(demand(plan.initial))
        }
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        let k = values
        values += 1
        log.add("S value \(input)")
        if plan.cancelAtValue == k {
            log.add("S cancels in receive(_:)")
            subscription?.cancel()
        }
        if plan.requestAtValue == k {
            log.add("S requests \(describe(demand(plan.requestAtValueDemand))) in receive(_:)")
            subscription?.request(demand(plan.requestAtValueDemand))
        }
        let more = demand(plan.demand(forValue: k))
        log.add("S returns \(describe(more))")
        return more
    }

    func receive(completion: Subscribers.Completion<any Error>) {
        log.add("S completion \(describe(completion))")
    }
}

/// `assign(to:on:)`'s object: logs each value set and its own release.
private final class AssignTarget {
    let log: EventLog
    var value = 0 {
        didSet { log.add("A value \(value)") }
    }

    init(log: EventLog) { self.log = log }

    deinit { log.add("A released") }
}

/// `assign(to: &$value)`'s object.
private final class PublishedTarget {
    @Published var value = 0
    let log: EventLog

    init(log: EventLog) { self.log = log }

    deinit { log.add("A released") }
}
