import RippleFoundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request that a `URLProtocol` fails — how mocked-network tests fail a request — reaches the
/// subscriber with the protocol's error code and underlying error, on Linux as on Darwin.
@Suite(.serialized) struct DataTaskPublisherProtocolTests {
    /// Fails every request it loads with a timeout whose underlying error is an error of its own.
    final class FailingProtocol: URLProtocol {
        static let underlying = NSError(domain: "RippleTests.Mock", code: 42, userInfo: ["reason": "the mock said no"])

        override class func canInit(with request: URLRequest) -> Bool { true }
        override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

        override func startLoading() {
            let error = NSError(
                domain: NSURLErrorDomain, code: NSURLErrorTimedOut,
                userInfo: [NSUnderlyingErrorKey: Self.underlying, NSLocalizedDescriptionKey: "The mock timed out."])
            client?.urlProtocol(self, didFailWithError: error)
        }

        override func stopLoading() {}
    }

    /// Fails every request with an error outside NSURLErrorDomain.
    final class ForeignErrorProtocol: URLProtocol {
        override class func canInit(with request: URLRequest) -> Bool { true }
        override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

        override func startLoading() {
            client?.urlProtocol(self, didFailWithError: NSError(domain: "RippleTests.Mock", code: 7))
        }

        override func stopLoading() {}
    }

    /// Records the one completion and signals it.
    final class Completions: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [Subscribers.Completion<URLError>] = []
        private let done = DispatchSemaphore(value: 0)

        var all: [Subscribers.Completion<URLError>] { lock.withLock { stored } }

        func record(_ completion: Subscribers.Completion<URLError>) {
            lock.withLock { stored.append(completion) }
            done.signal()
        }

        func wait() -> Bool { done.wait(timeout: .now() + 60) == .success }
    }

    static func session(protocolClass: AnyClass) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [protocolClass]
        return URLSession(configuration: configuration)
    }

    static func failure(with protocolClass: AnyClass) throws -> URLError {
        let completions = Completions()
        let cancellable = session(protocolClass: protocolClass)
            .dataTaskPublisher(for: URL(string: "https://example.invalid/items")!)
            .sink(receiveCompletion: { completions.record($0) }, receiveValue: { _ in Issue.record("a value arrived") })
        #expect(completions.wait())
        cancellable.cancel()
        let all = completions.all
        try #require(all.count == 1)
        guard case .failure(let error) = all[0] else {
            Issue.record("finished instead of failing")
            throw CancellationError()
        }
        return error
    }

    @Test func aProtocolsFailureKeepsItsCodeAndUnderlyingError() throws {
        let error = try Self.failure(with: FailingProtocol.self)
        #expect(error.code == .timedOut)
        #expect(error.errorCode == NSURLErrorTimedOut)
        let underlying = try #require(error.userInfo[NSUnderlyingErrorKey] as? NSError)
        #expect(underlying.domain == "RippleTests.Mock")
        #expect(underlying.code == 42)
        #expect(underlying.userInfo["reason"] as? String == "the mock said no")
        #expect(error.localizedDescription == "The mock timed out.")
    }

    @Test func anErrorOutsideTheURLDomainIsUnknownWithTheErrorUnderneath() throws {
        let error = try Self.failure(with: ForeignErrorProtocol.self)
        #expect(error.code == .unknown)
        let underlying = try #require(error.userInfo[NSUnderlyingErrorKey] as? NSError)
        #expect(underlying.domain == "RippleTests.Mock")
        #expect(underlying.code == 7)
    }
}
