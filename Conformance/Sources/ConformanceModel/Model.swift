// The pipeline description both runners interpret: a source, a chain of operators, a subscriber
// plan and a script of outside actions. Library-independent, seeded, printable.
import Foundation

/// A small deterministic generator (SplitMix64): a seed names a case on every machine.
public struct SplitMix: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    public mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
    public mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }
}

/// Where values come from.
public enum Source: Equatable, Sendable, CustomStringConvertible {
    case just(Int)
    case sequence([Int])
    case empty(completeImmediately: Bool)
    case fail
    /// Driven by the script's `send`/`finish`/`fail` steps.
    case passthrough
    case currentValue(Int)
    // Extended shapes (`--extended`).
    /// `Future { $0(.success(v)) }`, resolved at once.
    case future(Int)
    /// `Deferred { Just(v) }`.
    case deferredJust(Int)
    /// `Record(output: vs, completion: .finished)`.
    case record([Int])
    /// An `ObservableObjectPublisher`, mapped to 0; the script's `send` steps call its `send()`.
    case objectWillChange
    /// `Future { $0(.failure(.source)) }`, failed at once (`--extended`).
    case failingFuture

    public var isSubject: Bool {
        switch self {
        case .passthrough, .currentValue, .objectWillChange: return true
        default: return false
        }
    }

    public var description: String {
        switch self {
        case .just(let v): return "Just(\(v))"
        case .sequence(let vs): return "\(vs).publisher"
        case .empty(let c): return "Empty(completeImmediately: \(c))"
        case .fail: return "Fail(error: .source)"
        case .passthrough: return "PassthroughSubject()"
        case .currentValue(let v): return "CurrentValueSubject(\(v))"
        case .future(let v): return "Future { $0(.success(\(v))) }"
        case .deferredJust(let v): return "Deferred { Just(\(v)) }"
        case .record(let vs): return "Record(output: \(vs), completion: .finished)"
        case .objectWillChange: return "ObservableObjectPublisher().map { 0 }"
        case .failingFuture: return "Future { $0(.failure(.source)) }"
        }
    }
}

/// One operator. Closures are described by small parameters so a case prints readably.
public enum Op: Equatable, Sendable, CustomStringConvertible {
    /// A transparent publisher that logs what passes through it and what is asked of it.
    case probe
    case map(add: Int)
    case tryMap(throwOn: Int)
    case filter(mod: Int)
    case tryFilter(mod: Int, throwOn: Int)
    case compactMap(nilOn: Int)
    case tryCompactMap(nilOn: Int, throwOn: Int)
    case dropFirst(Int)
    case dropWhile(below: Int)
    case tryDropWhile(below: Int, throwOn: Int)
    case prefix(Int)
    case prefixWhile(below: Int)
    case tryPrefixWhile(below: Int, throwOn: Int)
    case outputAt(Int)
    case outputIn(Int, Int)
    case first
    case firstWhere(above: Int)
    case tryFirstWhere(above: Int, throwOn: Int)
    case last
    case lastWhere(above: Int)
    case tryLastWhere(above: Int, throwOn: Int)
    case removeDuplicates
    case tryRemoveDuplicates(throwOn: Int)
    case scan(Int)
    case tryScan(Int, throwOn: Int)
    case reduce(Int)
    case tryReduce(Int, throwOn: Int)
    case count
    case min
    case max
    case tryMin(throwOn: Int)
    case tryMax(throwOn: Int)
    case collect
    case collectCount(Int)
    case contains(Int)
    case containsWhere(above: Int)
    case tryContainsWhere(above: Int, throwOn: Int)
    case allSatisfy(below: Int)
    case tryAllSatisfy(below: Int, throwOn: Int)
    case ignoreOutput
    case replaceEmpty(Int)
    case replaceError(Int)
    case mapError
    case handleEvents
    case eraseToAnyPublisher
    case receiveOnImmediate
    case subscribeOnImmediate
    case catchJust(Int)
    case retry(Int)
    case append([Int])
    case prepend([Int])
    case mapKeyPath
    // Operators with more than one source (owned by the engine work).
    case zipWith([Int])
    case flatMapJust
    case flatMapOneAtATime([Int])
    case switchToLatestJust
    case bufferByRequest(Int)
    case bufferKeepFull(Int)
    case prefixUntilOutputEmpty
    case dropUntilOutputJust
    // Extended shapes (`--extended`).
    case bufferCustomError(Int)
    /// `share()` (`--extended`).
    case share
    /// `multicast { PassthroughSubject() }.autoconnect()` (`--extended`).
    case multicastAutoconnect
    // Time operators on a virtual-time scheduler (`--extended`): one scheduler per run, moved by
    // the script's `advance` steps; durations in virtual milliseconds.
    case debounce(ms: Int)
    case throttle(ms: Int, latest: Bool)
    case delay(ms: Int)
    case timeout(ms: Int, customError: Bool)
    /// `measureInterval(using:)`, each interval mapped to whole milliseconds.
    case measureInterval
    case receiveOnVirtual
    case subscribeOnVirtual

    /// Whether the operator runs on the run's virtual-time scheduler.
    public var isTimed: Bool {
        switch self {
        case .debounce, .throttle, .delay, .timeout, .measureInterval, .receiveOnVirtual, .subscribeOnVirtual: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .probe: return "probe"
        case .map(let a): return "map { $0 + \(a) }"
        case .tryMap(let t): return "tryMap { throw if $0 == \(t) }"
        case .filter(let m): return "filter { $0 % \(m) != 0 }"
        case .tryFilter(let m, let t): return "tryFilter { throw if $0 == \(t); $0 % \(m) != 0 }"
        case .compactMap(let n): return "compactMap { nil if $0 == \(n) }"
        case .tryCompactMap(let n, let t): return "tryCompactMap { throw if $0 == \(t); nil if $0 == \(n) }"
        case .dropFirst(let n): return "dropFirst(\(n))"
        case .dropWhile(let b): return "drop(while: { $0 < \(b) })"
        case .tryDropWhile(let b, let t): return "tryDrop(while: { throw if $0 == \(t); $0 < \(b) })"
        case .prefix(let n): return "prefix(\(n))"
        case .prefixWhile(let b): return "prefix(while: { $0 < \(b) })"
        case .tryPrefixWhile(let b, let t): return "tryPrefix(while: { throw if $0 == \(t); $0 < \(b) })"
        case .outputAt(let i): return "output(at: \(i))"
        case .outputIn(let a, let b): return "output(in: \(a)..<\(b))"
        case .first: return "first()"
        case .firstWhere(let a): return "first(where: { $0 > \(a) })"
        case .tryFirstWhere(let a, let t): return "tryFirst(where: { throw if $0 == \(t); $0 > \(a) })"
        case .last: return "last()"
        case .lastWhere(let a): return "last(where: { $0 > \(a) })"
        case .tryLastWhere(let a, let t): return "tryLast(where: { throw if $0 == \(t); $0 > \(a) })"
        case .removeDuplicates: return "removeDuplicates()"
        case .tryRemoveDuplicates(let t): return "tryRemoveDuplicates { throw if $1 == \(t); $0 == $1 }"
        case .scan(let i): return "scan(\(i), +)"
        case .tryScan(let i, let t): return "tryScan(\(i)) { throw if $1 == \(t); $0 + $1 }"
        case .reduce(let i): return "reduce(\(i), +)"
        case .tryReduce(let i, let t): return "tryReduce(\(i)) { throw if $1 == \(t); $0 + $1 }"
        case .count: return "count()"
        case .min: return "min()"
        case .max: return "max()"
        case .tryMin(let t): return "tryMin { throw if $1 == \(t); $0 < $1 }"
        case .tryMax(let t): return "tryMax { throw if $1 == \(t); $0 < $1 }"
        case .collect: return "collect().map(sum)"
        case .collectCount(let n): return "collect(\(n)).map(sum)"
        case .contains(let v): return "contains(\(v)).map(0/1)"
        case .containsWhere(let a): return "contains(where: { $0 > \(a) }).map(0/1)"
        case .tryContainsWhere(let a, let t): return "tryContains(where: { throw if $0 == \(t); $0 > \(a) }).map(0/1)"
        case .allSatisfy(let b): return "allSatisfy { $0 < \(b) }.map(0/1)"
        case .tryAllSatisfy(let b, let t): return "tryAllSatisfy { throw if $0 == \(t); $0 < \(b) }.map(0/1)"
        case .ignoreOutput: return "ignoreOutput()"
        case .replaceEmpty(let v): return "replaceEmpty(with: \(v))"
        case .replaceError(let v): return "replaceError(with: \(v)).setFailureType(to: Error.self)"
        case .mapError: return "mapError { $0 }"
        case .handleEvents: return "handleEvents()"
        case .eraseToAnyPublisher: return "eraseToAnyPublisher()"
        case .receiveOnImmediate: return "receive(on: ImmediateScheduler.shared)"
        case .subscribeOnImmediate: return "subscribe(on: ImmediateScheduler.shared)"
        case .catchJust(let v): return "catch { _ in Just(\(v)) }"
        case .retry(let n): return "retry(\(n))"
        case .append(let vs): return "append(\(vs))"
        case .prepend(let vs): return "prepend(\(vs))"
        case .mapKeyPath: return "map(\\.self)"
        case .zipWith(let vs): return "zip(\(vs).publisher).map(+)"
        case .flatMapJust: return "flatMap { Just($0 + 1) }"
        case .flatMapOneAtATime(let vs): return "flatMap(maxPublishers: .max(1)) { _ in \(vs).publisher }"
        case .switchToLatestJust: return "map { Just($0) }.switchToLatest()"
        case .bufferByRequest(let n): return "buffer(size: \(n), prefetch: .byRequest, whenFull: .dropOldest)"
        case .bufferKeepFull(let n): return "buffer(size: \(n), prefetch: .keepFull, whenFull: .dropNewest)"
        case .prefixUntilOutputEmpty: return "prefix(untilOutputFrom: Empty())"
        case .dropUntilOutputJust: return "drop(untilOutputFrom: Just(0))"
        case .bufferCustomError(let n): return "buffer(size: \(n), prefetch: .keepFull, whenFull: .customError { .subject })"
        case .share: return "share()"
        case .multicastAutoconnect: return "multicast { PassthroughSubject() }.autoconnect()"
        case .debounce(let ms): return "debounce(for: .milliseconds(\(ms)), scheduler: virtual)"
        case .throttle(let ms, let latest): return "throttle(for: .milliseconds(\(ms)), scheduler: virtual, latest: \(latest))"
        case .delay(let ms): return "delay(for: .milliseconds(\(ms)), scheduler: virtual)"
        case .timeout(let ms, let custom):
            return "timeout(.milliseconds(\(ms)), scheduler: virtual\(custom ? ", customError: { .subject }" : ""))"
        case .measureInterval: return "measureInterval(using: virtual).map(ms)"
        case .receiveOnVirtual: return "receive(on: virtual)"
        case .subscribeOnVirtual: return "subscribe(on: virtual)"
        }
    }

    /// The owner of the operator in the team (for reports).
    public var family: String {
        switch self {
        case .catchJust, .retry, .append, .prepend: return "async-api"
        case .zipWith, .flatMapJust, .flatMapOneAtATime, .switchToLatestJust,
            .bufferByRequest, .bufferKeepFull, .prefixUntilOutputEmpty, .dropUntilOutputJust, .bufferCustomError,
            .share, .multicastAutoconnect:
            return "engine"
        case .debounce, .throttle, .delay, .timeout, .measureInterval, .receiveOnVirtual, .subscribeOnVirtual:
            return "schedulers"
        default: return "operators"
        }
    }
}

/// A deliberate one-line defect the oracle's self-test (`--self-test`) plants in Ripple's run of a
/// pipeline: the oracle must report each as a divergence (open), not excuse it as a known
/// deviation. Each is planted in the runner's model of the pipeline (a transparent stage, or the
/// runner's hold on a subject), never in the library.
public enum PlantedDefect: String, CaseIterable, Sendable {
    /// A `[…].publisher` that never sends `.finished`.
    case sequenceWithholdsFinished
    /// `replaceEmpty(with:)` that never sends `.finished` (`[1].publisher.replaceEmpty(with: 1)`
    /// never completes).
    case replaceEmptyNeverCompletes
    /// A subject released as soon as it is subscribed to: the script's sends reach nobody.
    case subjectReleasedEarly
    /// `zip` that drops the demand its downstream returns for a tuple (a zip stall).
    case zipLosesReturnedDemand
    /// A cancel that never reaches the source: it goes on delivering.
    case cancelNeverReachesTheSource
    /// `debounce` that emits the first value of a burst instead of the last (planted in the
    /// extended seeds: the self-test runs it with `--extended` shapes).
    case debounceEmitsFirst

    /// Whether the defect lives in an extended shape (the self-test generates extended cases).
    public var needsExtended: Bool { self == .debounceEmitsFirst }
}

/// A demand as both runners spell it: `nil` is unlimited, 0 is none.
public typealias DemandSpec = Int?

public func describe(_ demand: DemandSpec) -> String {
    guard let n = demand else { return "unlimited" }
    return "max(\(n))"
}

/// What the subscriber at the end of the chain does.
public struct SubscriberPlan: Equatable, Sendable, CustomStringConvertible {
    /// Requested inside `receive(subscription:)`; `.some(0)` means no request there.
    public var initial: DemandSpec
    public var cancelInReceiveSubscription: Bool
    /// The demand returned for the k-th value (cycled; empty means `.none`).
    public var perValue: [DemandSpec]
    /// Cancel from inside `receive(_:)` of the k-th value (0-based).
    public var cancelAtValue: Int?
    /// Call `subscription.request(n)` from inside `receive(_:)` of the k-th value.
    public var requestAtValue: Int?
    public var requestAtValueDemand: DemandSpec
    /// Calls `subscription.request(.none)` (`.max(0)`) first thing in `receive(subscription:)`
    /// (extended shapes; only where Combine does not trap on it).
    public var requestsNoneFirst = false

    public init(
        initial: DemandSpec, cancelInReceiveSubscription: Bool = false, perValue: [DemandSpec] = [],
        cancelAtValue: Int? = nil, requestAtValue: Int? = nil, requestAtValueDemand: DemandSpec = 1
    ) {
        self.initial = initial
        self.cancelInReceiveSubscription = cancelInReceiveSubscription
        self.perValue = perValue
        self.cancelAtValue = cancelAtValue
        self.requestAtValue = requestAtValue
        self.requestAtValueDemand = requestAtValueDemand
    }

    public func demand(forValue k: Int) -> DemandSpec {
        perValue.isEmpty ? 0 : perValue[k % perValue.count]
    }

    public var description: String {
        var parts = ["initial: \(initial == 0 ? "none" : describe(initial))"]
        if requestsNoneFirst { parts.append("request(.max(0)) first") }
        if cancelInReceiveSubscription { parts.append("cancel in receive(subscription:)") }
        if !perValue.isEmpty { parts.append("per value: [\(perValue.map(describe).joined(separator: ", "))]") }
        if let k = cancelAtValue { parts.append("cancel at value #\(k)") }
        if let k = requestAtValue { parts.append("request(\(describe(requestAtValueDemand))) at value #\(k)") }
        return "subscriber(" + parts.joined(separator: ", ") + ")"
    }
}

/// An action from outside, after subscribing.
public enum Step: Equatable, Sendable, CustomStringConvertible {
    case send(Int)
    case finish
    case fail
    case request(DemandSpec)
    case cancel
    /// Moves the run's virtual clock forward (time cases).
    case advance(ms: Int)

    public var description: String {
        switch self {
        case .advance(let ms): return "advance(by: \(ms)ms)"
        case .send(let v): return "send(\(v))"
        case .finish: return "send(completion: .finished)"
        case .fail: return "send(completion: .failure(.subject))"
        case .request(let d): return "request(\(describe(d)))"
        case .cancel: return "cancel()"
        }
    }
}

/// One pipeline.
public struct Case: Equatable, Sendable, CustomStringConvertible {
    public var seed: UInt64
    public var source: Source
    public var ops: [Op]
    public var plan: SubscriberPlan
    public var script: [Step]
    /// What stands between the pipeline and the recording subscriber (extended shapes).
    public var wrap: SubscriberWrap = .none
    /// A second subscriber, a `sink` logging as "T", subscribed to the source subject before the
    /// pipeline (extended shapes; only for subject sources).
    public var secondSubscriber = false
    /// Probes on the inner publishers (extended shapes): catch's handler publisher ("PC1", "PC2"…,
    /// numbered as they are made) and append's publisher ("PA…"), so what those operators ask of
    /// them and cancel is compared too.
    public var probeInners = false

    public init(seed: UInt64, source: Source, ops: [Op], plan: SubscriberPlan, script: [Step]) {
        self.seed = seed
        self.source = source
        self.ops = ops
        self.plan = plan
        self.script = script
    }

    public var description: String {
        var lines = ["seed \(seed)", "  \(source)"]
        lines += ops.map { "  .\($0)" }
        lines.append("  \(plan)")
        switch wrap {
        case .none: break
        case .anySubscriber: lines.append("  subscribed through AnySubscriber(subscriber)")
        case .subject: lines.append("  subscribed through a PassthroughSubject the subscriber subscribes to")
        case .sink: lines.append("  the subscriber is sink(receiveCompletion:receiveValue:) (the plan unused; cancel() cancels it)")
        case .assign:
            lines.append("  the subscriber is replaceError(with: -1).assign(to: \\.value, on: object) (the plan unused; cancel() cancels it)")
        case .assignPublished:
            lines.append("  the subscriber is replaceError(with: -1).assign(to: &object.$value) (the plan unused; cancel() does nothing)")
        case .anySubscriberSubject:
            lines.append("  subscribed through AnySubscriber(relay), a PassthroughSubject the subscriber subscribes to")
        }
        if secondSubscriber { lines.append("  a sink T subscribed to the source subject first") }
        if probeInners { lines.append("  inner publishers probed (PC: catch's, PA: append's, PF: flatMap's)") }
        if !script.isEmpty { lines.append("  then: " + script.map(\.description).joined(separator: "; ")) }
        return lines.joined(separator: "\n")
    }
}

extension Case {
    /// The case a seed names.
    /// The case a seed names; with `extended`, about a third of the seeds are changed (by a
    /// generator of their own, so the others stay as they were) into the shapes added for issue
    /// #25: `Future`, `Deferred`, `Record` and `ObservableObjectPublisher` sources,
    /// `buffer(.customError)`, a subject or `AnySubscriber` as the subscriber.
    public static func generate(seed: UInt64, extended: Bool) -> Case {
        var c = generate(seed: seed)
        guard extended else { return c }
        c.addIssue25Shapes()
        // The remainder of issue #25, drawn by a generator of their own so the shapes above stay
        // on their seeds: time operators on a virtual-time scheduler, requests for `.none` where
        // Combine does not trap on them, `assign` as the final subscriber.
        var rng = SplitMix(seed: seed ^ 0x7153_0D_25)
        if rng.chance(22) {
            c.makeTimed(&rng)
        } else if rng.chance(10) {
            c.makeZeroDemand(&rng)
        }
        if c.wrap == .none, !c.plan.requestsNoneFirst, rng.chance(8) {
            c.wrap = rng.chance(60) ? .assign : .assignPublished
        }
        c.addIssue34Shapes()
        return c
    }

    /// Issue #34's shapes, drawn by a generator of their own (so every shape above stays on its
    /// seed): a failing `Future`; `share()` and `multicast { PassthroughSubject() }.autoconnect()`;
    /// `AnySubscriber(subject)` as the subscriber (with a probe right above it, the subject's
    /// upstream: what the subject asks and cancels); probes on inner publishers. Not in the time
    /// and zero-demand cases (a request for `.none` traps in Combine's `Future` and subjects,
    /// which `share`, `multicast` and `AnySubscriber(subject)` put in the chain:
    /// FutureTests/PassthroughSubjectTests `testCrashesOnZeroDemand`).
    private mutating func addIssue34Shapes() {
        var rng = SplitMix(seed: seed ^ 0x3434_0D_34)
        let zeroDemand = plan.requestsNoneFirst || (plan.requestAtValue != nil && plan.requestAtValueDemand == 0)
            || script.contains(.request(0))
        let plain = !ops.contains(where: \.isTimed) && !zeroDemand
        if plain, rng.chance(6) {
            source = .failingFuture
            secondSubscriber = false
            script.removeAll { if case .send = $0 { true } else { $0 == .finish || $0 == .fail } }
        }
        // Only over a source that sends nothing while autoconnect connects (a subject the script
        // drives): a cancel made from inside a delivery during `connect()` is unsettled (Conformance/
        // README.md, "share, multicast, AnySubscriber(subject), failing Futures, inner probes").
        let quietWhileConnecting = source == .passthrough || source == .objectWillChange
        if plain, quietWhileConnecting, rng.chance(25) {
            ops.insert(rng.chance(50) ? .share : .multicastAutoconnect, at: rng.int(0...ops.count))
        }
        if plain, wrap == .none, rng.chance(6) {
            wrap = .anySubscriberSubject
            if ops.last != .probe { ops.append(.probe) }
        }
        // catch's handler and append's publisher; flatMap's inners are drawn below (after these, so
        // the shapes above keep their seeds).
        let hasInner = ops.contains {
            switch $0 {
            case .catchJust, .append: true
            default: false
            }
        }
        if hasInner, rng.chance(60) { probeInners = true }
        // flatMap's inner publishers (issue #34's remainder), drawn after the shapes above so they
        // keep their seeds: probed as "PF…".
        let hasFlatMap = ops.contains {
            switch $0 {
            case .flatMapJust, .flatMapOneAtATime: true
            default: false
            }
        }
        if hasFlatMap, !probeInners, rng.chance(60) { probeInners = true }
        // share()/multicast().autoconnect() over a source that is not a subject the script drives
        // (a sequence, `Just`, `Record`, `Deferred`, `Future`, a current-value subject, `Empty`,
        // `Fail`): the source delivers while autoconnect connects. Only with
        // CONFORMANCE_SHARE_ANY_SOURCE=1 (not in CI): the divergences they show are not settled yet
        // (Conformance/README.md, "share over a source that is not a driven subject").
        if Case.shareOverAnySource, plain, !quietWhileConnecting, !ops.contains(.share), !ops.contains(.multicastAutoconnect), rng.chance(15) {
            ops.insert(rng.chance(50) ? .share : .multicastAutoconnect, at: rng.int(0...ops.count))
        }
    }

    /// Whether `share()`/`multicast().autoconnect()` are generated over every source
    /// (CONFORMANCE_SHARE_ANY_SOURCE=1; worker processes inherit it).
    static let shareOverAnySource = ProcessInfo.processInfo.environment["CONFORMANCE_SHARE_ANY_SOURCE"] == "1"

    private mutating func addIssue25Shapes() {
        var c = self
        defer { self = c }
        var rng = SplitMix(seed: seed ^ 0x5EED_0F_25)
        guard rng.chance(35) else { return }
        if rng.chance(40) {
            switch rng.int(0...3) {
            case 0: c.source = .future(rng.int(0...5))
            case 1: c.source = .deferredJust(rng.int(0...5))
            case 2: c.source = .record((0..<rng.int(0...4)).map { _ in rng.int(0...5) })
            default:
                c.source = .objectWillChange
            }
            if !c.source.isSubject { c.script.removeAll { if case .send = $0 { true } else { $0 == .finish || $0 == .fail } } }
        }
        // (`merge` and `combineLatest` are not in OpenCombine 0.14.0: the oracle cannot compare them.)
        if rng.chance(30) { c.ops.insert(.bufferCustomError(rng.int(1...3)), at: rng.int(0...c.ops.count)) }
        if rng.chance(30) { c.wrap = rng.chance(50) ? .anySubscriber : .subject }
        // Drawn after the shapes above, so the seeds that had them keep them.
        if c.wrap == .none, rng.chance(15) { c.wrap = .sink }
        // Combine's ObservableObjectPublisher sends whatever the demand (OpenCombine's
        // ObservableObjectTests.testBasicBehavior, recorded against Combine) and Combine's `catch`
        // traps on a value nobody asked for (OpenCombine's CatchTests.testCatchCrashesOnUnwantedInput,
        // recorded against Combine): that pipeline traps in Combine, as in Ripple. Not generated.
        if c.source == .objectWillChange { c.ops.removeAll { if case .catchJust = $0 { true } else { false } } }
        if c.source.isSubject, rng.chance(25) { c.secondSubscriber = true }
    }

    /// Durations the time operators and the script's clock moves are drawn from, in virtual
    /// milliseconds (multiples of 10, so instants coincide: a send at the instant a timer is due).
    private static func duration(_ rng: inout SplitMix) -> Int { [10, 20, 30, 50][rng.int(0...3)] }

    static func timedOp(_ rng: inout SplitMix) -> Op {
        switch rng.int(0...8) {
        case 0, 1: return .debounce(ms: duration(&rng))
        case 2, 3: return .throttle(ms: duration(&rng), latest: rng.chance(50))
        case 4: return .delay(ms: rng.chance(20) ? 0 : duration(&rng))
        case 5: return .timeout(ms: duration(&rng), customError: rng.chance(50))
        case 6: return .measureInterval
        case 7: return .receiveOnVirtual
        default: return .subscribeOnVirtual
        }
    }

    /// One to two time operators, with at most one other operator, values sent and the clock
    /// moved at scripted virtual instants, and a last `advance` that lets every timer run.
    mutating func makeTimed(_ rng: inout SplitMix) {
        if !source.isSubject, rng.chance(70) { source = rng.chance(75) ? .passthrough : .currentValue(rng.int(0...5)) }
        var middle: [Op] = (0..<rng.int(1...2)).map { _ in Case.timedOp(&rng) }
        // Not replaceEmpty: its deliberate demand difference (it asks for no more than the
        // downstream's demand) changes which values throttle drops for want of demand, which the
        // replaceEmpty rule cannot judge.
        if let other = ops.first(where: { $0 != .probe }), rng.chance(50),
            !{ if case .replaceEmpty = other { true } else { false } }()
        {
            middle.insert(other, at: rng.int(0...middle.count))
        }
        var newOps: [Op] = rng.chance(70) ? [.probe] : []
        for op in middle {
            newOps.append(op)
            if rng.chance(40) { newOps.append(.probe) }
        }
        ops = newOps
        secondSubscriber = secondSubscriber && source.isSubject
        func demand() -> DemandSpec { rng.chance(15) ? nil : rng.int(1...3) }
        var steps: [Step] = []
        for _ in 0..<rng.int(2...10) {
            let roll = rng.int(0...99)
            if source.isSubject && roll < 40 {
                steps.append(.send(rng.int(0...5)))
            } else if roll < 72 {
                steps.append(.advance(ms: [0, 5, 10, 20, 30, 50, 80][rng.int(0...6)]))
            } else if source.isSubject && roll < 78 {
                steps.append(rng.chance(70) ? .finish : .fail)
            } else if roll < 96 {
                steps.append(.request(demand()))
            } else {
                steps.append(.cancel)
            }
        }
        steps.append(.advance(ms: 1000))
        script = steps
    }

    /// Sources and operators on which Combine does not trap for a request for `.none` (tests
    /// recorded against Combine: OpenCombine's `SequenceTests`/`RecordTests` "Shouldn't crash",
    /// `.requested(.none)` reaching the upstream in `HandleEventsTests`, `ConcatenateTests`,
    /// `DelayTests`, `ReceiveOnTests`, `SubscribeOnTests`, `MeasureIntervalTests`,
    /// `PrefixUntilOutputTests.testRequestZeroDemand`, `DropUntilOutputTests`; `ThrottleTests` and
    /// `BufferTests` take it without asking the upstream; `TimeoutTests.testNoUpstreamRequestOnZeroDemand`).
    /// `map` and `eraseToAnyPublisher` hand the upstream's subscription on. Subjects trap
    /// (`PassthroughSubjectTests`/`CurrentValueSubjectTests.testCrashOnZeroInitialDemand`), and so
    /// do `Just`, `Future`, `dropFirst`, `collect(_:)`, `flatMap`, `replaceEmpty`, `zip`,
    /// `switchToLatest`, `drop(while:)` (their `testCrashesOnZeroDemand` tests): not generated.
    static func zeroDemandOp(_ rng: inout SplitMix) -> Op {
        switch rng.int(0...11) {
        case 0: return .map(add: rng.int(1...3))
        case 1: return .mapError
        case 2: return .eraseToAnyPublisher
        case 3: return .handleEvents
        case 4: return .append((0..<rng.int(0...2)).map { _ in rng.int(0...5) })
        case 5: return .prepend((0..<rng.int(0...2)).map { _ in rng.int(0...5) })
        case 6: return rng.chance(50) ? .bufferByRequest(rng.int(1...3)) : .bufferKeepFull(rng.int(1...3))
        case 7: return .prefixUntilOutputEmpty
        case 8: return .dropUntilOutputJust
        case 9: return rng.chance(50) ? .receiveOnImmediate : .subscribeOnImmediate
        default: return timedOp(&rng)
        }
    }

    /// Requests for `.none` (`.max(0)`): first thing in `receive(subscription:)`, from inside
    /// `receive(_:)`, and from the script, over a chain where Combine takes them.
    mutating func makeZeroDemand(_ rng: inout SplitMix) {
        switch rng.int(0...5) {
        case 0, 1, 2: source = .sequence((0..<rng.int(0...5)).map { _ in rng.int(0...5) })
        case 3: source = .record((0..<rng.int(0...4)).map { _ in rng.int(0...5) })
        case 4: source = .empty(completeImmediately: rng.chance(70))
        default: source = .fail
        }
        secondSubscriber = false
        if wrap == .subject || wrap.replacesRecorder { wrap = rng.chance(30) ? .anySubscriber : .none }
        var newOps: [Op] = rng.chance(70) ? [.probe] : []
        for _ in 0..<rng.int(1...3) {
            newOps.append(Case.zeroDemandOp(&rng))
            if rng.chance(40) { newOps.append(.probe) }
        }
        ops = newOps
        let timed = ops.contains(where: \.isTimed)
        plan.requestsNoneFirst = rng.chance(60)
        if rng.chance(25) {
            plan.requestAtValue = rng.int(0...2)
            plan.requestAtValueDemand = 0
        }
        func demand() -> DemandSpec { rng.chance(15) ? nil : rng.int(0...3) }
        var steps: [Step] = []
        for _ in 0..<rng.int(1...6) {
            let roll = rng.int(0...99)
            if roll < 35 {
                steps.append(.request(0))
            } else if timed && roll < 60 {
                steps.append(.advance(ms: [0, 10, 20, 50][rng.int(0...3)]))
            } else if roll < 95 {
                steps.append(.request(demand()))
            } else {
                steps.append(.cancel)
            }
        }
        if timed { steps.append(.advance(ms: 1000)) }
        script = steps
    }

    public static func generate(seed: UInt64) -> Case {
        var rng = SplitMix(seed: seed)
        let source: Source
        switch rng.int(0...9) {
        case 0: source = .just(rng.int(0...5))
        case 1, 2: source = .sequence((0..<rng.int(0...5)).map { _ in rng.int(0...5) })
        case 3: source = .empty(completeImmediately: rng.chance(80))
        case 4: source = .fail
        case 5, 6, 7: source = .passthrough
        default: source = .currentValue(rng.int(0...5))
        }
        var ops: [Op] = []
        if rng.chance(70) { ops.append(.probe) }
        for _ in 0..<rng.int(1...3) {
            ops.append(randomOp(&rng))
            if rng.chance(40) { ops.append(.probe) }
        }
        func demand() -> DemandSpec { rng.chance(15) ? nil : rng.int(1...3) }
        var plan = SubscriberPlan(initial: rng.chance(20) ? 0 : demand())
        plan.cancelInReceiveSubscription = rng.chance(4)
        plan.perValue = rng.chance(50) ? [] : (0..<rng.int(1...3)).map { _ in rng.chance(40) ? 0 : demand() }
        if rng.chance(15) { plan.cancelAtValue = rng.int(0...3) }
        if rng.chance(15) {
            plan.requestAtValue = rng.int(0...3)
            plan.requestAtValueDemand = demand()
        }
        var script: [Step] = []
        for _ in 0..<rng.int(0...(source.isSubject ? 8 : 3)) {
            let roll = rng.int(0...99)
            if source.isSubject && roll < 55 {
                script.append(.send(rng.int(0...5)))
            } else if source.isSubject && roll < 62 {
                script.append(rng.chance(70) ? .finish : .fail)
            } else if roll < 92 {
                script.append(.request(demand()))
            } else {
                script.append(.cancel)
            }
        }
        return Case(seed: seed, source: source, ops: ops, plan: plan, script: script)
    }

    static func randomOp(_ rng: inout SplitMix) -> Op {
        func s() -> Int { rng.int(0...5) }
        switch rng.int(0...61) {
        case 0: return .map(add: rng.int(1...3))
        case 1: return .tryMap(throwOn: s())
        case 2: return .filter(mod: rng.int(2...3))
        case 3: return .tryFilter(mod: rng.int(2...3), throwOn: s())
        case 4: return .compactMap(nilOn: s())
        case 5: return .tryCompactMap(nilOn: s(), throwOn: s())
        case 6, 7: return .dropFirst(rng.int(0...3))
        case 8: return .dropWhile(below: s())
        case 9: return .tryDropWhile(below: s(), throwOn: s())
        case 10, 11: return .prefix(rng.int(0...3))
        case 12: return .prefixWhile(below: s())
        case 13: return .tryPrefixWhile(below: s(), throwOn: s())
        case 14: return .outputAt(rng.int(0...3))
        case 15: let a = rng.int(0...3); return .outputIn(a, a + rng.int(0...3))
        case 16: return .first
        case 17: return .firstWhere(above: s())
        case 18: return .tryFirstWhere(above: s(), throwOn: s())
        case 19: return .last
        case 20: return .lastWhere(above: s())
        case 21: return .tryLastWhere(above: s(), throwOn: s())
        case 22, 23: return .removeDuplicates
        case 24: return .tryRemoveDuplicates(throwOn: s())
        case 25: return .scan(s())
        case 26: return .tryScan(s(), throwOn: s())
        case 27: return .reduce(s())
        case 28: return .tryReduce(s(), throwOn: s())
        case 29: return .count
        case 30: return .min
        case 31: return .max
        case 32: return .tryMin(throwOn: s())
        case 33: return .tryMax(throwOn: s())
        case 34: return .collect
        case 35: return .collectCount(rng.int(1...3))
        case 36: return .contains(s())
        case 37: return .containsWhere(above: s())
        case 38: return .tryContainsWhere(above: s(), throwOn: s())
        case 39: return .allSatisfy(below: s())
        case 40: return .tryAllSatisfy(below: s(), throwOn: s())
        case 41: return .ignoreOutput
        case 42: return .replaceEmpty(s())
        case 43: return .replaceError(s())
        case 44: return .mapError
        case 45: return .handleEvents
        case 46: return .eraseToAnyPublisher
        case 47: return .receiveOnImmediate
        case 48: return .subscribeOnImmediate
        case 49: return .catchJust(s())
        case 50: return .retry(rng.int(0...2))
        case 51: return .append((0..<rng.int(0...2)).map { _ in s() })
        case 52: return .prepend((0..<rng.int(0...2)).map { _ in s() })
        case 53: return .mapKeyPath
        case 54: return .zipWith((0..<rng.int(0...3)).map { _ in s() })
        case 55: return .flatMapJust
        case 56: return .flatMapOneAtATime((0..<rng.int(0...2)).map { _ in s() })
        case 57: return .switchToLatestJust
        case 58: return .bufferByRequest(rng.int(1...3))
        case 59: return .bufferKeepFull(rng.int(1...3))
        case 60: return .prefixUntilOutputEmpty
        default: return .dropUntilOutputJust
        }
    }

    /// Smaller cases, simplest first, for shrinking a divergence to a readable one.
    public func shrinkCandidates() -> [Case] {
        var out: [Case] = []
        for i in ops.indices {
            var c = self
            c.ops.remove(at: i)
            out.append(c)
        }
        for i in script.indices {
            var c = self
            c.script.remove(at: i)
            out.append(c)
        }
        if plan.cancelAtValue != nil { var c = self; c.plan.cancelAtValue = nil; out.append(c) }
        if plan.requestAtValue != nil { var c = self; c.plan.requestAtValue = nil; out.append(c) }
        if plan.cancelInReceiveSubscription { var c = self; c.plan.cancelInReceiveSubscription = false; out.append(c) }
        if plan.requestsNoneFirst { var c = self; c.plan.requestsNoneFirst = false; out.append(c) }
        if probeInners { var c = self; c.probeInners = false; out.append(c) }
        if plan.perValue.count > 1 { var c = self; c.plan.perValue.removeLast(); out.append(c) }
        if !plan.perValue.isEmpty { var c = self; c.plan.perValue = []; out.append(c) }
        if case .sequence(let vs) = source, !vs.isEmpty {
            for i in vs.indices {
                var c = self
                var smaller = vs
                smaller.remove(at: i)
                c.source = .sequence(smaller)
                out.append(c)
            }
        }
        return out
    }
}

/// What stands between the pipeline and the recording subscriber.
public enum SubscriberWrap: Equatable, Sendable {
    case none
    /// `pipe.subscribe(AnySubscriber(recorder))`.
    case anySubscriber
    /// `pipe.subscribe(relay)` where `relay` is a `PassthroughSubject` the recorder subscribed to.
    case subject
    /// `pipe.sink(receiveCompletion:receiveValue:)` logging as the recorder does ("S value",
    /// "S completion"); the script's `cancel()` cancels it, its requests reach nobody.
    case sink
    /// `pipe.replaceError(with: -1).assign(to: \.value, on: object)`: the object logs each value
    /// set ("A value") and its release ("A released"); the script's `cancel()` cancels the
    /// returned `AnyCancellable`, its requests reach nobody.
    case assign
    /// `pipe.replaceError(with: -1).assign(to: &object.$value)`: a sink on `object.$value` logs
    /// what it publishes ("A value", the initial 0 first); the object is released after "end"
    /// ("A released"). The script's `cancel()` and requests reach nobody.
    case assignPublished
    /// `pipe.subscribe(AnySubscriber(relay))` where `relay` is a `PassthroughSubject` the recorder
    /// subscribed to (the runner keeps `relay` until the run's end).
    case anySubscriberSubject

    /// Whether the plan's subscriber is replaced by a subscriber of the library's own.
    public var replacesRecorder: Bool { self == .sink || self == .assign || self == .assignPublished }
}

/// The error the sources and throwing closures use.
public enum TestError: Error, Equatable, Sendable, CustomStringConvertible {
    case source
    case subject
    case thrown(Int)

    public var description: String {
        switch self {
        case .source: return "source"
        case .subject: return "subject"
        case .thrown(let v): return "thrown(\(v))"
        }
    }
}

/// The shared event history of one run: the probes', the subscriber's and the script's events,
/// in the order they happened.
public final class EventLog: @unchecked Sendable {
    public private(set) var events: [String] = []
    /// The run's virtual clock in milliseconds (time cases only): an event logged at another
    /// instant than the one before it is preceded by "at <t>ms", so histories carry their times.
    public var clock: (() -> Int)?
    private var lastTime = 0
    public init() {}
    public func add(_ event: String) {
        if let clock {
            let now = clock()
            if now != lastTime {
                lastTime = now
                append("at \(now)ms")
            }
        }
        append(event)
    }
    private func append(_ event: String) {
        if events.count < 400 { events.append(event) } else if events.count == 400 { events.append("… (truncated)") }
    }
}
