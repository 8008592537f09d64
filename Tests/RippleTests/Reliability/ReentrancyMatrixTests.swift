import Foundation
import Ripple
import Testing

/// The re-entrancy matrix: from inside `receive(subscription:)`, `receive(_:)` and
/// `receive(completion:)`, each of send, send(completion:), cancel, request and subscribe-another,
/// for the subjects, `@Published`, `Future` and the stateful operators. Every cell has a defined
/// outcome, listed in `ReentrancyMatrix.expected` and in Documentation/Reliability.md (a test
/// keeps the two the same). A cell that deadlocks fails on a timeout instead of hanging the run.
extension Heavy {
    @Suite struct ReentrancyMatrixTests {
        enum Source: String, CaseIterable, Sendable {
            case passthrough = "PassthroughSubject"
            case currentValue = "CurrentValueSubject(0)"
            case published = "@Published ($x)"
            case future = "Future"
            case merge = "merge"
            case combineLatest = "combineLatest"
            case flatMap = "flatMap"
            case buffer = "buffer"
            case zip = "zip"
            case switchToLatest = "switchToLatest"
            case share = "share"
        }

        enum Callback: String, CaseIterable, Sendable {
            case subscription = "receive(subscription:)"
            case value = "receive(_:)"
            case completion = "receive(completion:)"
        }

        enum Action: String, CaseIterable, Sendable {
            case send = "send(100)"
            case complete = "send(completion:)"
            case cancel = "cancel()"
            case request = "request(.max(1))"
            case subscribeAnother = "subscribe another"
        }

        /// A source the matrix drives: what to subscribe to, how to send into it and how to end it.
        final class Rig: @unchecked Sendable {
            let publisher: AnyPublisher<Int, Never>
            let send: (Int) -> Void
            let complete: () -> Void
            private let keep: [AnyObject]

            init(publisher: AnyPublisher<Int, Never>, send: @escaping (Int) -> Void, complete: @escaping () -> Void, keep: [AnyObject] = []) {
                self.publisher = publisher
                self.send = send
                self.complete = complete
                self.keep = keep
            }

            final class Model: ObservableObject {
                @Published var value = 0
            }

            static func make(_ source: Source) -> Rig {
                switch source {
                case .passthrough:
                    let subject = PassthroughSubject<Int, Never>()
                    return Rig(publisher: subject.eraseToAnyPublisher(), send: { subject.send($0) },
                               complete: { subject.send(completion: .finished) })
                case .currentValue:
                    let subject = CurrentValueSubject<Int, Never>(0)
                    return Rig(publisher: subject.eraseToAnyPublisher(), send: { subject.send($0) },
                               complete: { subject.send(completion: .finished) })
                case .published:
                    let model = Model()
                    return Rig(publisher: model.$value.eraseToAnyPublisher(), send: { model.value = $0 }, complete: {},
                               keep: [model])
                case .future:
                    let promise = Locked<Future<Int, Never>.Promise?>(nil)
                    let future = Future<Int, Never> { fulfil in promise.withLock { $0 = fulfil } }
                    return Rig(publisher: future.eraseToAnyPublisher(), send: { value in promise.current?(.success(value)) },
                               complete: {})
                case .merge:
                    let a = PassthroughSubject<Int, Never>()
                    let b = PassthroughSubject<Int, Never>()
                    return Rig(publisher: a.merge(with: b).eraseToAnyPublisher(), send: { a.send($0) },
                               complete: { a.send(completion: .finished); b.send(completion: .finished) })
                case .combineLatest:
                    let a = PassthroughSubject<Int, Never>()
                    let b = CurrentValueSubject<Int, Never>(0)
                    return Rig(publisher: a.combineLatest(b, +).eraseToAnyPublisher(), send: { a.send($0) },
                               complete: { a.send(completion: .finished); b.send(completion: .finished) })
                case .flatMap:
                    let outer = CurrentValueSubject<Int, Never>(0)
                    let inner = PassthroughSubject<Int, Never>()
                    return Rig(publisher: outer.flatMap { _ in inner }.eraseToAnyPublisher(), send: { inner.send($0) },
                               complete: { inner.send(completion: .finished); outer.send(completion: .finished) })
                case .buffer:
                    let subject = PassthroughSubject<Int, Never>()
                    let buffered = subject.buffer(size: 10, prefetch: .byRequest, whenFull: .dropNewest)
                    return Rig(publisher: buffered.eraseToAnyPublisher(), send: { subject.send($0) },
                               complete: { subject.send(completion: .finished) })
                case .zip:
                    // Each send feeds both sides, so every send makes one pair (x + x).
                    let a = PassthroughSubject<Int, Never>()
                    let b = PassthroughSubject<Int, Never>()
                    return Rig(publisher: a.zip(b) { x, _ in x }.eraseToAnyPublisher(),
                               send: { a.send($0); b.send($0) },
                               complete: { a.send(completion: .finished); b.send(completion: .finished) })
                case .switchToLatest:
                    let inner = PassthroughSubject<Int, Never>()
                    let outer = CurrentValueSubject<PassthroughSubject<Int, Never>, Never>(inner)
                    return Rig(publisher: outer.switchToLatest().eraseToAnyPublisher(), send: { inner.send($0) },
                               complete: { inner.send(completion: .finished); outer.send(completion: .finished) })
                case .share:
                    let subject = PassthroughSubject<Int, Never>()
                    return Rig(publisher: subject.share().eraseToAnyPublisher(), send: { subject.send($0) },
                               complete: { subject.send(completion: .finished) })
                }
            }
        }

        /// The subscriber under test: performs `action` the first time `callback` happens, then (in
        /// `receive(subscription:)`) asks for `.unlimited`.
        final class Probe: Subscriber, @unchecked Sendable {
            typealias Input = Int
            typealias Failure = Never

            let rig: Rig
            let callback: Callback
            let action: Action
            let log = Locked<[String]>([])
            let other = Locked<[String]>([])
            private let subscription = Locked<(any Subscription)?>(nil)
            private let fired = Locked(false)

            init(rig: Rig, callback: Callback, action: Action) {
                self.rig = rig
                self.callback = callback
                self.action = action
            }

            private func hook(_ at: Callback) {
                guard at == callback, !fired.withLock({ fired in defer { fired = true }; return fired }) else { return }
                switch action {
                case .send: rig.send(100)
                case .complete: rig.complete()
                case .cancel: subscription.current?.cancel()
                case .request: subscription.current?.request(.max(1))
                case .subscribeAnother:
                    let other = self.other
                    rig.publisher.subscribe(
                        AnySubscriber<Int, Never>(
                            receiveSubscription: { other.withLock { $0.append("S") }; $0.request(.unlimited) },
                            receiveValue: { value in other.withLock { $0.append("\(value)") }; return .none },
                            receiveCompletion: { _ in other.withLock { $0.append("F") } }))
                }
            }

            func receive(subscription: any Subscription) {
                self.subscription.withLock { $0 = subscription }
                log.withLock { $0.append("S") }
                hook(.subscription)
                subscription.request(.unlimited)
            }

            func receive(_ input: Int) -> Subscribers.Demand {
                log.withLock { $0.append("\(input)") }
                hook(.value)
                return .none
            }

            func receive(completion: Subscribers.Completion<Never>) {
                log.withLock { $0.append("F") }
                hook(.completion)
            }
        }

        /// Runs one cell on its own thread; returns the outcome, or `nil` on a timeout (deadlock).
        static func run(_ source: Source, _ callback: Callback, _ action: Action) -> String? {
            let done = DispatchSemaphore(value: 0)
            let outcome = Locked<String?>(nil)
            Thread.detachNewThread {
                let rig = Rig.make(source)
                let probe = Probe(rig: rig, callback: callback, action: action)
                rig.publisher.subscribe(probe)
                rig.send(1)
                rig.send(2)
                rig.complete()
                var text = probe.log.current.joined(separator: " ")
                if action == .subscribeAnother, !probe.other.current.isEmpty {
                    text += " / other: " + probe.other.current.joined(separator: " ")
                }
                outcome.withLock { $0 = text }
                done.signal()
            }
            guard done.wait(timeout: .now() + 10) == .success else { return nil }
            return outcome.current
        }

        @Test(arguments: Source.allCases)
        func everyCellMatchesItsDefinition(source: Source) {
            for callback in Callback.allCases {
                for action in Action.allCases {
                    let expected = ReentrancyMatrix.expected[source]?[callback]?[action]
                    let actual = Self.run(source, callback, action)
                    #expect(actual != nil, "\(source.rawValue), \(callback.rawValue), \(action.rawValue): deadlock (timed out)")
                    #expect(
                        actual == expected,
                        "\(source.rawValue), \(callback.rawValue), \(action.rawValue): got \(actual ?? "timeout")")
                }
            }
        }

        /// The documentation's table is generated from the same definitions; this keeps them equal.
        @Test func documentationTableIsCurrent() throws {
            let docs = URL(fileURLWithPath: #filePath)
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Documentation/Reliability.md")
            let text = try String(contentsOf: docs, encoding: .utf8)
            #expect(text.contains(ReentrancyMatrix.markdownTable()), "regenerate the table in Documentation/Reliability.md")
        }
    }
}

extension Heavy.ReentrancyMatrixTests {
    /// `RIPPLE_PRINT_MATRIX=1 swift test --filter printMatrix` prints every cell's outcome as a
    /// Swift literal, to review when behaviour changes on purpose.
    @Test func printMatrix() {
        guard ProcessInfo.processInfo.environment["RIPPLE_PRINT_MATRIX"] != nil else { return }
        var lines: [String] = []
        for source in Source.allCases {
            lines.append("    .\(source): [")
            for callback in Callback.allCases {
                let cells = Action.allCases.map { action in
                    ".\(action): \"\(Self.run(source, callback, action) ?? "TIMEOUT")\""
                }
                lines.append("        .\(callback): [" + cells.joined(separator: ", ") + "],")
            }
            lines.append("    ],")
        }
        print("MATRIX\n" + lines.joined(separator: "\n"))
    }
}
