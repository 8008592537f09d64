#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(ucrt)
import ucrt
#endif

extension Publishers {
    /// A publisher that prints log messages for all publishing events, optionally prefixed with a
    /// given string.
    ///
    /// The lines have Combine's wording: `receive subscription: (…)`, `request unlimited`,
    /// `request max: (n)`, `request max: (n) (synchronous)` for demand returned from `receive(_:)`,
    /// `receive value: (…)`, `receive finished`, `receive error: (…)`, `receive cancel`.
    public struct Print<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// A string with which to prefix all log messages.
        public let prefix: String
        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The stream to write to; standard output when `nil`.
        public let stream: (any TextOutputStream)?

        /// Creates a `Print` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, prefix: String, to stream: (any TextOutputStream)? = nil) {
            self.upstream = upstream
            self.prefix = prefix
            self.stream = stream
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.receive(subscriber: PrintInner(downstream: subscriber, prefix: prefix, stream: stream))
        }
    }

    /// A publisher that raises a debugger signal when a provided closure needs to stop the process in
    /// the debugger.
    ///
    /// It raises `SIGTRAP`, as Combine does: under a debugger execution stops there; without one the
    /// process ends.
    public struct Breakpoint<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// A closure that executes when the publisher receives a subscription, and can raise a
        /// debugger signal by returning a true Boolean value.
        public let receiveSubscription: ((any Subscription) -> Bool)?
        /// A closure that executes when the publisher receives output from the upstream publisher, and
        /// can raise a debugger signal by returning a true Boolean value.
        public let receiveOutput: ((Upstream.Output) -> Bool)?
        /// A closure that executes when the publisher receives completion, and can raise a debugger
        /// signal by returning a true Boolean value.
        public let receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)?

        /// Creates a `Breakpoint` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(
            upstream: Upstream, receiveSubscription: ((any Subscription) -> Bool)? = nil,
            receiveOutput: ((Upstream.Output) -> Bool)? = nil,
            receiveCompletion: ((Subscribers.Completion<Publishers.Breakpoint<Upstream>.Failure>) -> Bool)? = nil
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            // As Combine's, it passes the upstream subscription through; it keeps the closures
            // only, never `self` (the upstream publisher is not kept alive by the subscription).
            upstream.receive(subscriber:
                BreakpointInner(
                    downstream: subscriber, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
                    receiveCompletion: receiveCompletion))
        }
    }

    /// A publisher that raises a fatal error upon receiving any failure, and otherwise republishes
    /// all received input.
    public struct AssertNoFailure<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Never

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The string used at the beginning of the fatal error message.
        public let prefix: String
        /// The filename used in the error message.
        public let file: StaticString
        /// The line number used in the error message.
        public let line: UInt

        /// Creates a `AssertNoFailure` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, prefix: String, file: StaticString, line: UInt) {
            self.upstream = upstream
            self.prefix = prefix
            self.file = file
            self.line = line
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
            upstream.receive(subscriber: AssertNoFailureInner(downstream: subscriber, prefix: prefix, file: file, line: line))
        }
    }
}

extension Publisher {
    /// Prints log messages for all publishing events.
    ///
    /// ```swift
    /// let cancellable = Just(1).print("just").sink { _ in }
    /// // just: receive subscription: (Just)
    /// // just: request unlimited
    /// // just: receive value: (1)
    /// // just: receive finished
    /// ```
    public func print(_ prefix: String = "", to stream: (any TextOutputStream)? = nil) -> Publishers.Print<Self> {
        Publishers.Print(upstream: self, prefix: prefix, to: stream)
    }

    /// Raises a debugger signal when a provided closure needs to stop the process in the debugger.
    public func breakpoint(
        receiveSubscription: ((any Subscription) -> Bool)? = nil, receiveOutput: ((Output) -> Bool)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)? = nil
    ) -> Publishers.Breakpoint<Self> {
        Publishers.Breakpoint(
            upstream: self, receiveSubscription: receiveSubscription, receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion)
    }

    /// Raises a debugger signal upon receiving a failure.
    public func breakpointOnError() -> Publishers.Breakpoint<Self> {
        breakpoint(receiveCompletion: { if case .failure = $0 { true } else { false } })
    }

    /// Raises a fatal error when its upstream publisher fails, and otherwise republishes all received
    /// input.
    public func assertNoFailure(
        _ prefix: String = "", file: StaticString = #file, line: UInt = #line
    ) -> Publishers.AssertNoFailure<Self> {
        Publishers.AssertNoFailure(upstream: self, prefix: prefix, file: file, line: line)
    }
}

private func raiseDebuggerSignal() {
    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    raise(SIGTRAP)
    #else
    fatalError("breakpoint: a debugger signal was requested")
    #endif
}

/// Writes the print operator's lines; the stream is copied per line because a `TextOutputStream`
/// writes through a mutating method.
private final class PrintInner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible {
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    private let downstream: Downstream
    private let prefix: String
    private let lock = Lock()
    private var stream: (any TextOutputStream)?
    private var upstream: (any Subscription)?

    init(downstream: Downstream, prefix: String, stream: (any TextOutputStream)?) {
        self.downstream = downstream
        self.prefix = prefix.isEmpty ? "" : prefix + ": "
        self.stream = stream
    }

    var description: String { "Print" }

    private func log(_ line: String) {
        let text = prefix + line
        lock.lock()
        if stream != nil {
            stream!.write(text + "\n")
            lock.unlock()
        } else {
            lock.unlock()
            Swift.print(text)
        }
    }

    private static func describe(_ demand: Subscribers.Demand) -> String {
        demand == .unlimited ? "unlimited" : "max: (\(demand.max ?? 0))"
    }

    func receive(subscription: any Subscription) {
        log("receive subscription: (\(subscription))")
        lock.withLock { upstream = subscription }
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        log("receive value: (\(input))")
        let demand = downstream.receive(input)
        if demand > 0 {
            log("request \(Self.describe(demand)) (synchronous)")
        }
        return demand
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished: log("receive finished")
        case .failure(let error): log("receive error: (\(error))")
        }
        downstream.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        log("request \(Self.describe(demand))")
        lock.withLock { upstream }?.request(demand)
    }

    func cancel() {
        log("receive cancel")
        let upstream = lock.withLock { () -> (any Subscription)? in
            defer { self.upstream = nil }
            return self.upstream
        }
        upstream?.cancel()
    }
}

private struct AssertNoFailureInner<Downstream: Subscriber, Input, UpstreamFailure: Error>: Subscriber,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Input, Downstream.Failure == Never {
    typealias Failure = UpstreamFailure

    let downstream: Downstream
    let prefix: String
    let file: StaticString
    let line: UInt
    let combineIdentifier = CombineIdentifier()
    var description: String { "AssertNoFailure" }
    var playgroundDescription: Any { description }
    var customMirror: Mirror { Mirror(self, children: ["upstream": "\(Input.self), \(UpstreamFailure.self)"]) }

    func receive(subscription: any Subscription) { downstream.receive(subscription: subscription) }
    func receive(_ input: Input) -> Subscribers.Demand { downstream.receive(input) }

    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        switch completion {
        case .finished:
            downstream.receive(completion: .finished)
        case .failure(let error):
            let lead = prefix.isEmpty ? "" : prefix + ": "
            fatalError("\(lead)\(file):\(line): \(error)", file: file, line: line)
        }
    }
}

/// `breakpoint`'s subscriber: it checks each event against its closures and passes the upstream
/// subscription straight through, as Combine's does.
private struct BreakpointInner<Downstream: Subscriber>: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
{
    typealias Input = Downstream.Input
    typealias Failure = Downstream.Failure

    let downstream: Downstream
    let receiveSubscription: ((any Subscription) -> Bool)?
    let receiveOutput: ((Input) -> Bool)?
    let receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)?
    let combineIdentifier = CombineIdentifier()

    var description: String { "Breakpoint" }
    var playgroundDescription: Any { description }
    var customMirror: Mirror { Mirror(self, children: [:]) }

    func receive(subscription: any Subscription) {
        if receiveSubscription?(subscription) == true { raiseDebuggerSignal() }
        downstream.receive(subscription: subscription)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        if receiveOutput?(input) == true { raiseDebuggerSignal() }
        return downstream.receive(input)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        if receiveCompletion?(completion) == true { raiseDebuggerSignal() }
        downstream.receive(completion: completion)
    }
}
