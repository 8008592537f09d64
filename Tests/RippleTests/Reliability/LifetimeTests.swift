import Foundation
import Ripple
import RippleTesting
import Testing

/// Lifetimes (rule 7, extended to every layer): after cancel or completion, the subscriptions,
/// the subscribers and everything an operator chain built are released — proven with weak
/// references — and a million subscribe/cancel cycles leave the heap flat.
extension Heavy {
    @Suite struct LifetimeTests {
        /// A subscriber that can be watched through a weak reference.
        final class Watched: Subscriber, @unchecked Sendable {
            typealias Input = Int
            typealias Failure = Never
            let subscription = Locked<(any Subscription)?>(nil)
            func receive(subscription: any Subscription) {
                self.subscription.withLock { $0 = subscription }
                subscription.request(.unlimited)
            }
            func receive(_ input: Int) -> Subscribers.Demand { .none }
            func receive(completion: Subscribers.Completion<Never>) {
                subscription.withLock { $0 = nil }
            }
            func cancel() {
                let subscription = self.subscription.withLock { taken -> (any Subscription)? in
                    defer { taken = nil }
                    return taken
                }
                subscription?.cancel()
            }
        }

        typealias Chain = @Sendable (PassthroughSubject<Int, Never>) -> AnyPublisher<Int, Never>

        /// Every stateful operator (and a few stateless ones), fed by one subject; every other source
        /// in a chain finishes by itself, so completing the subject completes the chain.
        static let chains: [(String, Chain)] = [
            ("map+filter", { $0.map { $0 + 1 }.filter { _ in true }.eraseToAnyPublisher() }),
            ("scan", { $0.scan(0, +).eraseToAnyPublisher() }),
            ("merge", { $0.merge(with: Empty<Int, Never>()).eraseToAnyPublisher() }),
            ("combineLatest", { $0.combineLatest(Just(1).setFailureType(to: Never.self), +).eraseToAnyPublisher() }),
            ("zip", { $0.zip(Just(5), +).eraseToAnyPublisher() }),
            ("flatMap", { $0.flatMap { Just($0) }.eraseToAnyPublisher() }),
            ("switchToLatest", { $0.map { Just($0) }.switchToLatest().eraseToAnyPublisher() }),
            ("share", { $0.share().eraseToAnyPublisher() }),
            ("buffer", { $0.buffer(size: 4, prefetch: .byRequest, whenFull: .dropOldest).eraseToAnyPublisher() }),
            ("append", { $0.append(1, 2).eraseToAnyPublisher() }),
            ("catch", { $0.setFailureType(to: TestError.self).catch { _ in Just(0) }.eraseToAnyPublisher() }),
            ("collect+map", { $0.collect().map(\.count).eraseToAnyPublisher() }),
            ("prefix(untilOutputFrom:)", { $0.prefix(untilOutputFrom: PassthroughSubject<Void, Never>()).eraseToAnyPublisher() }),
            ("debounce", { $0.debounce(for: .milliseconds(1), scheduler: ImmediateScheduler.shared).eraseToAnyPublisher() }),
            ("receive(on:)", { $0.receive(on: ImmediateScheduler.shared).eraseToAnyPublisher() }),
        ]

        @Test(arguments: [false, true])
        func operatorChainsAreReleasedAfterCancelOrCompletion(completing: Bool) {
            for (name, chain) in Self.chains {
                weak var weakSubscriber: Watched?
                weak var weakSubscription: AnyObject?
                weak var weakSubject: PassthroughSubject<Int, Never>?
                do {
                    let subject = PassthroughSubject<Int, Never>()
                    let subscriber = Watched()
                    chain(subject).subscribe(subscriber)
                    subject.send(1)
                    weakSubscriber = subscriber
                    weakSubject = subject
                    weakSubscription = subscriber.subscription.current.map { $0 as AnyObject }
                    if completing {
                        subject.send(completion: .finished)
                    } else {
                        subscriber.cancel()
                    }
                }
                #expect(weakSubscriber == nil, "\(name): subscriber kept after \(completing ? "completion" : "cancel")")
                #expect(weakSubscription == nil, "\(name): subscription kept after \(completing ? "completion" : "cancel")")
                #expect(weakSubject == nil, "\(name): subject kept after \(completing ? "completion" : "cancel")")
            }
        }

        final class Model: ObservableObject, @unchecked Sendable {
            @Published var value = 0
        }

        @Test func trackingObserversAreReleasedAfterFiringOrCancel() {
            // Dogfooding RippleTesting: LifetimeTracker, willChangeCount and propertiesRead.
            let lifetimes = LifetimeTracker()
            do {
                let model = Model()
                lifetimes.track(model, "model")
                let fired = Locked(0)
                withTracking { _ = model.value } onChange: { _ in fired.withLock { $0 += 1 } }
                #expect(willChangeCount(of: model) { model.value = 1 } == 1)  // fires and drops the one-shot observer
                #expect(propertiesRead { _ = model.value } == ["Model.value"])
                let token = observe { _ = model.value }
                token.cancel()
                let continuous = track { _ = model.value } onChange: { _ in }
                continuous.cancel()
                #expect(fired.current == 1)
            }
            #expect(lifetimes.alive.isEmpty)
        }

        /// Resident memory in bytes, from /proc/self/statm (Linux); 0 where that file does not exist.
        /// (glibc's `mallinfo2` is not visible from Swift here; a leak shows in the resident set too.)
        static func residentBytes() -> Int {
            guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
            let fields = text.split(separator: " ")
            guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
            return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        }

        @Test func aMillionSubscribeCancelCyclesLeaveTheHeapFlat() {
            let subject = PassthroughSubject<Int, Never>()
            let model = Model()
            func cycles(_ count: Int) {
                for index in 0..<count {
                    let token = index & 1 == 0 ? subject.sink { _ in } : model.$value.sink { _ in }
                    token.cancel()
                }
            }
            cycles(100_000)  // warm up caches and free lists
            let before = Self.residentBytes()
            cycles(sanitizerScaled(1_000_000))
            let after = Self.residentBytes()
            // Each cycle allocates a few hundred bytes; leaking even 8 of them would add 8 MB here.
            #expect(after - before < 2 * 1024 * 1024, "resident memory grew by \(after - before) bytes over 1,000,000 cycles")
        }
    }
}
