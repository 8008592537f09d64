// Compiled twice: as RippleScenarios (against Ripple) and, through a symlink, as
// OpenCombineScenarios (against OpenCombine, with OPENCOMBINE defined). Keep to the API both share.
import BenchHarness
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if OPENCOMBINE
import OpenCombine
private let library = "OpenCombine"
#else
import Ripple
private let library = "Ripple"
#endif

/// The models every scenario file of this module uses (tracking scenarios too).
final class Model: ObservableObject, @unchecked Sendable {
    @Published var value = 0
}

final class Model10: ObservableObject, @unchecked Sendable {
    @Published var p0 = 0
    @Published var p1 = 0
    @Published var p2 = 0
    @Published var p3 = 0
    @Published var p4 = 0
    @Published var p5 = 0
    @Published var p6 = 0
    @Published var p7 = 0
    @Published var p8 = 0
    @Published var p9 = 0
}

/// The object `assign(to:on:)` writes to.
final class AssignTarget: @unchecked Sendable {
    var value = 0
}

/// Keeps subscriptions (and whatever else a scenario needs) alive for the measured loop.
private final class KeepAlive {
    var cancellables: [AnyCancellable] = []
    var objects: [AnyObject] = []
}

/// Fresh models made before a first-access run (not measured).
private final class Models<M> {
    let all: [M]
    init(_ all: [M]) { self.all = all }
}

public enum Suite {
    public static func scenarios() -> [Scenario] {
        var all: [Scenario] = []
        func add(_ name: String, perIteration: Int = 1, _ make: @escaping @Sendable () -> Scenario.Measure) {
            all.append(Scenario(name, library: library, operationsPerIteration: perIteration, make: make))
        }

        // MARK: Subjects
        for sinks in [1, 10, 100, 1_000, 10_000] {
            let name: String
            switch sinks {
            case 1: name = "send, 1 sink"
            case 10, 100: name = "send, \(sinks) sinks (per delivery)"
            default: name = "growth: send, \(sinks) sinks (per delivery)"
            }
            add(name, perIteration: sinks) {
                let counter = Sink()
                let subject = PassthroughSubject<Int, Never>()
                let keep = KeepAlive()
                for _ in 0..<sinks { keep.cancellables.append(subject.sink { counter.total &+= $0 }) }
                return .loop { n in
                    withExtendedLifetime(keep) {
                        for i in 0..<n { subject.send(i) }
                    }
                }
            }
        }
        add("map→filter→sink") {
            let counter = Sink()
            let subject = PassthroughSubject<Int, Never>()
            let token = subject.map { $0 &+ 1 }.filter { $0 & 1 == 0 }.sink { counter.total &+= $0 }
            return .loop { n in
                withExtendedLifetime(token) {
                    for i in 0..<n { subject.send(i) }
                }
            }
        }
        add("map→filter→Subscribers.Sink (no direct path)") {
            // The same chain with an explicit Subscribers.Sink: what any operator chain costs when
            // `sink` cannot attach to the subject directly (stateful or erased operators in between).
            let counter = Sink()
            let subject = PassthroughSubject<Int, Never>()
            let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { counter.total &+= $0 })
            subject.map { $0 &+ 1 }.filter { $0 & 1 == 0 }.subscribe(sink)
            return .loop { n in
                withExtendedLifetime(sink) {
                    for i in 0..<n { subject.send(i) }
                }
            }
        }
        add("CurrentValueSubject send") {
            let counter = Sink()
            let subject = CurrentValueSubject<Int, Never>(0)
            let token = subject.sink { counter.total &+= $0 }
            return .loop { n in
                withExtendedLifetime(token) {
                    for i in 0..<n { subject.send(i) }
                }
            }
        }
        add("send, assign(to:on:)") {
            let target = AssignTarget()
            let subject = PassthroughSubject<Int, Never>()
            let token = subject.assign(to: \.value, on: target)
            return .loop { n in
                withExtendedLifetime(token) {
                    for i in 0..<n { subject.send(i) }
                }
            }
        }
        add("send, handleEvents→dropFirst→prefix→sink") {
            let counter = Sink()
            let subject = PassthroughSubject<Int, Never>()
            let token = subject.handleEvents(receiveOutput: { counter.total &+= $0 }).dropFirst().prefix(Int.max)
                .sink { counter.total &+= $0 }
            return .loop { n in
                withExtendedLifetime(token) {
                    for i in 0..<n { subject.send(i) }
                }
            }
        }
        add("send, removeDuplicates→sink") {
            let counter = Sink()
            let subject = PassthroughSubject<Int, Never>()
            let token = subject.removeDuplicates().sink { counter.total &+= $0 }
            return .loop { n in
                withExtendedLifetime(token) {
                    for i in 0..<n { subject.send(i) }
                }
            }
        }
        add("Future: make, resolve, sink") {
            let counter = Sink()
            return .loop { n in
                for i in 0..<n {
                    let future = Future<Int, Never> { $0(.success(i)) }
                    _ = future.sink { counter.total &+= $0 }
                }
            }
        }
        for others in [0, 1_000, 10_000] {
            let name = others == 0 ? "sink+cancel" : (others == 1_000 ? "sink+cancel, 1,000 others" : "growth: sink+cancel, 10,000 others")
            add(name) {
                let counter = Sink()
                let subject = PassthroughSubject<Int, Never>()
                let keep = KeepAlive()
                for _ in 0..<others { keep.cancellables.append(subject.sink { counter.total &+= $0 }) }
                return .loop { n in
                    withExtendedLifetime(keep) {
                        for _ in 0..<n {
                            let token = subject.sink { counter.total &+= $0 }
                            token.cancel()
                        }
                    }
                }
            }
        }
        // MARK: receive(on:) and receive(subscriber:)
        // On ImmediateScheduler, which runs each block inline: the rows measure the operator (its
        // flight count and delivery turn), not a queue. The closures differ from the rows above on
        // purpose (identical closures are merged by the compiler, which changes those rows' counts).
        add("receive(on: ImmediateScheduler): send → sink") {
            let counter = Sink()
            let subject = PassthroughSubject<Int, Never>()
            let token = subject.receive(on: ImmediateScheduler.shared).sink { counter.total &+= $0 &* 13 }
            return .loop { n in
                withExtendedLifetime(token) {
                    for i in 0..<n { subject.send(i) }
                }
            }
        }
        add("receive(on: ImmediateScheduler): subscribe+cancel") {
            let counter = Sink()
            let subject = PassthroughSubject<Int, Never>()
            return .loop { n in
                for _ in 0..<n {
                    let token = subject.receive(on: ImmediateScheduler.shared).sink { counter.total &+= $0 &* 17 }
                    token.cancel()
                }
            }
        }
        add("Subscribers.Sink subscribe+cancel (receive(subscriber:))") {
            // `sink` on a subject attaches to the conduit without `receive(subscriber:)`; an explicit
            // Subscribers.Sink goes through it (and its receive(subscription:)).
            let counter = Sink()
            let subject = PassthroughSubject<Int, Never>()
            return .loop { n in
                for _ in 0..<n {
                    let sink = Subscribers.Sink<Int, Never>(
                        receiveCompletion: { _ in }, receiveValue: { counter.total &+= $0 &* 19 })
                    subject.subscribe(sink)
                    sink.cancel()
                }
            }
        }
        add("heap per live sink") {
            .heap { n in
                let counter = Sink()
                let subject = PassthroughSubject<Int, Never>()
                let keep = KeepAlive()
                keep.objects.append(subject)
                keep.cancellables.reserveCapacity(n)
                for _ in 0..<n { keep.cancellables.append(subject.sink { counter.total &+= $0 }) }
                return keep
            }
        }

        add("heap per fresh ObservableObject (1 @Published)") {
            .heap { n in
                let keep = KeepAlive()
                keep.objects.reserveCapacity(n)
                for _ in 0..<n { keep.objects.append(Model()) }
                return keep
            }
        }

        // MARK: Contended
        add("contended: 4 threads send into 1 subject (per send)") {
            // Four threads send into one subject with one sink at the same time: what waiting for
            // the subscriber's turn costs (both libraries make a second sender wait).
            let counter = Sink()
            let subject = PassthroughSubject<Int, Never>()
            let token = subject.sink { counter.total &+= $0 }
            return .loop { n in
                withExtendedLifetime(token) {
                    runOnThreads(4) { _ in
                        for i in 0..<(n / 4) { subject.send(i) }
                    }
                }
            }
        }

        // MARK: Fan-in
        add("zip, 2 subjects (per pair)") {
            let counter = Sink()
            let a = PassthroughSubject<Int, Never>()
            let b = PassthroughSubject<Int, Never>()
            let token = a.zip(b).sink { counter.total &+= $0.0 &+ $0.1 }
            return .loop { n in
                withExtendedLifetime(token) {
                    for i in 0..<n {
                        a.send(i)
                        b.send(i)
                    }
                }
            }
        }
        add("flatMap fan-in, 2 inner subjects (per send)") {
            let counter = Sink()
            let outer = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
            let a = PassthroughSubject<Int, Never>()
            let b = PassthroughSubject<Int, Never>()
            let token = outer.flatMap { $0 }.sink { counter.total &+= $0 }
            outer.send(a)
            outer.send(b)
            return .loop { n in
                withExtendedLifetime(token) {
                    for i in 0..<n { (i & 1 == 0 ? a : b).send(i) }
                }
            }
        }
        #if !OPENCOMBINE
        // RippleDiagnostics switched on (Ripple only): what recording a subscription costs. The
        // rows with it off are the plain "sink+cancel" and "send, 1 sink" above. The closures differ
        // from those rows' on purpose: identical ones are merged into one function by the compiler,
        // which adds a jump to the rows above and changes their counts.
        add("diagnostics on: sink+cancel") {
            let counter = Sink()
            let subject = PassthroughSubject<Int, Never>()
            return .loop { n in
                RippleDiagnostics.isEnabled = true
                defer { RippleDiagnostics.isEnabled = false }
                for _ in 0..<n {
                    let token = subject.sink { counter.total &+= $0 &* 3 }
                    token.cancel()
                }
            }
        }
        add("diagnostics on: map→filter→AnyPublisher→sink subscribe+cancel") {
            let counter = Sink()
            let subject = PassthroughSubject<Int, Never>()
            return .loop { n in
                RippleDiagnostics.isEnabled = true
                defer { RippleDiagnostics.isEnabled = false }
                for _ in 0..<n {
                    let token = subject.map { $0 &* 5 }.filter { $0 & 3 == 0 }.eraseToAnyPublisher()
                        .sink { counter.total &+= $0 &* 7 }
                    token.cancel()
                }
            }
        }
        add("diagnostics on: send, 1 sink recorded") {
            let counter = Sink()
            let subject = PassthroughSubject<Int, Never>()
            RippleDiagnostics.isEnabled = true
            let token = subject.sink { counter.total &+= $0 &* 11 }
            RippleDiagnostics.isEnabled = false
            return .loop { n in
                withExtendedLifetime(token) {
                    for i in 0..<n { subject.send(i) }
                }
            }
        }
        // OpenCombine 0.14 has neither merge nor combineLatest: Ripple and the floor only.
        add("merge fan-in, 2 subjects (per send)") {
            let counter = Sink()
            let a = PassthroughSubject<Int, Never>()
            let b = PassthroughSubject<Int, Never>()
            let token = a.merge(with: b).sink { counter.total &+= $0 }
            return .loop { n in
                withExtendedLifetime(token) {
                    for i in 0..<n { (i & 1 == 0 ? a : b).send(i) }
                }
            }
        }
        add("combineLatest fan-in, 2 subjects (per send)") {
            let counter = Sink()
            let a = PassthroughSubject<Int, Never>()
            let b = PassthroughSubject<Int, Never>()
            let token = a.combineLatest(b).sink { counter.total &+= $0.0 &+ $0.1 }
            a.send(0)
            b.send(0)
            return .loop { n in
                withExtendedLifetime(token) {
                    for i in 0..<n { (i & 1 == 0 ? a : b).send(i) }
                }
            }
        }
        #endif

        // MARK: ObservableObject and @Published
        add("@Published set, objectWillChange sink") {
            let counter = Sink()
            let model = Model()
            let token = model.objectWillChange.sink { counter.total &+= 1 }
            return .loop { n in
                withExtendedLifetime(token) {
                    for i in 0..<n { model.value = i }
                }
            }
        }
        add("@Published set, $x sink") {
            let counter = Sink()
            let model = Model()
            let token = model.$value.sink { counter.total &+= $0 }
            return .loop { n in
                withExtendedLifetime(token) {
                    for i in 0..<n { model.value = i }
                }
            }
        }
        add("@Published set, unobserved") {
            let model = Model()
            return .loop { n in
                for i in 0..<n { model.value = i }
            }
        }
        add("@Published get") {
            let counter = Sink()
            let model = Model()
            model.value = 3
            return .loop { n in
                var total = 0
                for _ in 0..<n { total &+= model.value }
                counter.total &+= total
            }
        }
        add("objectWillChange repeat access") {
            let counter = Sink()
            let model = Model()
            _ = model.objectWillChange
            return .loop { n in
                for _ in 0..<n { counter.total &+= Int(bitPattern: UInt(bitPattern: ObjectIdentifier(model.objectWillChange))) & 1 }
            }
        }
        add("objectWillChange first access, 1 prop") {
            let counter = Sink()
            return .prepared(
                prepare: { n in Models((0..<n).map { _ in Model() }) },
                run: { models in
                    for model in (models as! Models<Model>).all {
                        counter.total &+= Int(bitPattern: UInt(bitPattern: ObjectIdentifier(model.objectWillChange))) & 1
                    }
                })
        }
        add("objectWillChange first access, 10 props") {
            let counter = Sink()
            return .prepared(
                prepare: { n in Models((0..<n).map { _ in Model10() }) },
                run: { models in
                    for model in (models as! Models<Model10>).all {
                        counter.total &+= Int(bitPattern: UInt(bitPattern: ObjectIdentifier(model.objectWillChange))) & 1
                    }
                })
        }
        return all
    }
}

/// Runs `body(index)` on `count` new threads at once and returns when all have finished.
private func runOnThreads(_ count: Int, _ body: @escaping (Int) -> Void) {
    final class Job {
        let body: (Int) -> Void
        let index: Int
        init(_ body: @escaping (Int) -> Void, _ index: Int) {
            self.body = body
            self.index = index
        }
    }
    var threads: [pthread_t] = []
    for index in 0..<count {
        var thread = pthread_t()
        let job = Unmanaged.passRetained(Job(body, index)).toOpaque()
        pthread_create(&thread, nil, { raw in
            let job = Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue()
            job.body(job.index)
            return nil
        }, job)
        threads.append(thread)
    }
    for thread in threads { pthread_join(thread, nil) }
}
