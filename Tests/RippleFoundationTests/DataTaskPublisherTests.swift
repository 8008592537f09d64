import RippleFoundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `URLSession.dataTaskPublisher(for:)` against a real HTTP server on 127.0.0.1 that the test
/// starts itself. Every wait is bounded; nothing is timed.
@Suite(.serialized) struct DataTaskPublisherTests {
    /// Records everything it receives (also after a cancel, to show nothing comes) and signals
    /// its completion.
    final class Probe: Subscriber, @unchecked Sendable {
        typealias Input = (data: Data, response: URLResponse)
        typealias Failure = URLError

        private let lock = NSLock()
        private var log: [String] = []
        private var storedSubscription: (any Subscription)?
        private let completed = DispatchSemaphore(value: 0)
        private let initialDemand: Subscribers.Demand?

        init(demand: Subscribers.Demand? = .unlimited) {
            initialDemand = demand
        }

        var events: [String] { lock.withLock { log } }
        var subscription: (any Subscription)? { lock.withLock { storedSubscription } }

        func receive(subscription: any Subscription) {
            lock.withLock {
                log.append("subscription")
                storedSubscription = subscription
            }
            if let initialDemand { subscription.request(initialDemand) }
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            let status = (input.response as? HTTPURLResponse)?.statusCode ?? -1
            lock.withLock { log.append("value \(status) \(String(decoding: input.data, as: UTF8.self))") }
            return .none
        }

        func receive(completion: Subscribers.Completion<URLError>) {
            lock.withLock {
                switch completion {
                case .finished: log.append("finished")
                case .failure(let error): log.append("failure \(error.code.rawValue)")
                }
            }
            completed.signal()
        }

        /// Waits (bounded) for the completion.
        func waitForCompletion(seconds: Double = 60) -> Bool {
            completed.wait(timeout: .now() + seconds) == .success
        }
    }

    static func session(delegateQueue: OperationQueue? = nil) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 60
        configuration.timeoutIntervalForResource = 120
        configuration.connectionProxyDictionary = [:]
        return URLSession(configuration: configuration, delegate: nil, delegateQueue: delegateQueue)
    }

    @Test func successDeliversTheDataAndResponseThenFinishes() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let session = Self.session()
        let byURL = Probe()
        session.dataTaskPublisher(for: server.url("/hello")).subscribe(byURL)
        var request = URLRequest(url: server.url("/hello"))
        request.httpMethod = "GET"
        let byRequest = Probe()
        session.dataTaskPublisher(for: request).subscribe(byRequest)
        #expect(byURL.waitForCompletion())
        #expect(byRequest.waitForCompletion())
        #expect(byURL.events == ["subscription", "value 200 hello", "finished"])
        #expect(byRequest.events == ["subscription", "value 200 hello", "finished"])
        #expect(server.requests == 2)
    }

    @Test func anHTTPErrorStatusIsAValueNotAFailure() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let probe = Probe()
        Self.session().dataTaskPublisher(for: server.url("/missing")).subscribe(probe)
        #expect(probe.waitForCompletion())
        #expect(probe.events == ["subscription", "value 404 no such page", "finished"])
    }

    @Test func aRefusedConnectionFailsWithAURLError() {
        let port = LoopbackHTTPServer.refusingPort()
        let probe = Probe()
        Self.session().dataTaskPublisher(for: URL(string: "http://127.0.0.1:\(port)/hello")!).subscribe(probe)
        #expect(probe.waitForCompletion())
        #expect(probe.events == ["subscription", "failure \(URLError.Code.cannotConnectToHost.rawValue)"])
    }

    @Test func theTaskStartsOnlyOnDemand() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let session = Self.session()
        let waiting = Probe(demand: nil)
        let publisher = session.dataTaskPublisher(for: server.url("/hello"))
        publisher.subscribe(waiting)
        // A second subscriber with demand runs its own task; when it is done, the server has seen
        // exactly one request: the first subscription made none.
        let eager = Probe()
        publisher.subscribe(eager)
        #expect(eager.waitForCompletion())
        #expect(server.requests == 1)
        #expect(waiting.events == ["subscription"])
        waiting.subscription?.request(.max(1))
        #expect(waiting.waitForCompletion())
        #expect(waiting.events == ["subscription", "value 200 hello", "finished"])
        #expect(server.requests == 2)
    }

    @Test func cancellingMidTransferEndsTheTaskAndDeliversNothing() throws {
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        // One serial queue runs every completion handler of the session in order.
        let handlers = OperationQueue()
        handlers.maxConcurrentOperationCount = 1
        let session = Self.session(delegateQueue: handlers)
        let stalled = Probe()
        session.dataTaskPublisher(for: server.url("/stall")).subscribe(stalled)
        #expect(server.waitForStall())
        stalled.subscription?.cancel()
        // The task ends: the server sees its connection closed.
        #expect(server.waitForStallClosed())
        // The cancelled task's handler was queued before this later request's: once this one has
        // completed, the cancelled one has run too — and delivered nothing.
        let later = Probe()
        session.dataTaskPublisher(for: server.url("/hello")).subscribe(later)
        #expect(later.waitForCompletion())
        handlers.waitUntilAllOperationsAreFinished()
        #expect(later.events == ["subscription", "value 200 hello", "finished"])
        #expect(stalled.events == ["subscription"])
        #expect(server.closedStalls == 1)
    }

    @Test func describesItselfAsCombines() throws {
        let probe = Probe(demand: nil)
        Self.session().dataTaskPublisher(for: URL(string: "http://127.0.0.1:9/")!).subscribe(probe)
        let subscription = try #require(probe.subscription)
        #expect(String(describing: subscription) == "DataTaskPublisher")
        #expect(Mirror(reflecting: subscription).children.map(\.label) == ["task", "downstream", "demand"])
        subscription.cancel()
    }
}
