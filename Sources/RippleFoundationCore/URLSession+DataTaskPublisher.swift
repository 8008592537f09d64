import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSession {
    /// Returns a publisher that wraps a URL session data task for a given URL.
    ///
    /// ```swift
    /// let cancellable = URLSession.shared.dataTaskPublisher(for: URL(string: "https://example.com")!)
    ///     .map(\.data)
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0.count, "bytes") })
    /// ```
    ///
    /// The task starts on the subscriber's first request, not before; cancelling the subscription
    /// cancels the task. An HTTP error status is not a failure: the response arrives as a value
    /// (check its `statusCode`), as in Combine.
    ///
    /// - Parameter url: The URL to load.
    /// - Returns: A publisher of the data and response, failing with the task's `URLError`.
    public func dataTaskPublisher(for url: URL) -> DataTaskPublisher {
        dataTaskPublisher(for: URLRequest(url: url))
    }

    /// Returns a publisher that wraps a URL session data task for a given URL request.
    ///
    /// ```swift
    /// var request = URLRequest(url: URL(string: "https://example.com/api")!)
    /// request.httpMethod = "POST"
    /// let publisher = URLSession.shared.dataTaskPublisher(for: request)
    /// ```
    ///
    /// - Parameter request: The request to perform.
    /// - Returns: A publisher of the data and response, failing with the task's `URLError`.
    public func dataTaskPublisher(for request: URLRequest) -> DataTaskPublisher {
        DataTaskPublisher(request: request, session: self)
    }

    /// A publisher that delivers the results of performing URL session data tasks.
    ///
    /// Each subscription runs its own data task, started by the first request for demand. The
    /// subscriber gets one `(data, response)` value and `.finished`, or a `URLError`. A failure keeps
    /// the task's error code and user info — its `NSUnderlyingErrorKey` among them — also on Linux,
    /// where a task's or a `URLProtocol`'s `NSError` does not cast to `URLError`; an error outside
    /// `NSURLErrorDomain` arrives as `URLError(.unknown)` with that error as its underlying error.
    /// Cancelling cancels the task; nothing is delivered after `cancel()` returns.
    public struct DataTaskPublisher: Publisher, Sendable {
        /// The data the task loaded, and the server's response.
        public typealias Output = (data: Data, response: URLResponse)
        /// The error a failed task reports.
        public typealias Failure = URLError

        /// The URL request performed by the data task.
        public let request: URLRequest
        /// The URL session that performs the data task.
        public let session: URLSession

        /// Creates a data task publisher from the provided URL request and URL session.
        public init(request: URLRequest, session: URLSession) {
            self.request = request
            self.session = session
        }

        /// Attaches `subscriber`; the task starts on its first request.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscriber.receive(subscription: DataTaskSubscription(request: request, session: session, downstream: subscriber))
        }
    }
}

/// One data task for one subscriber: created and resumed on the first request, cancelled with the
/// subscription. State is one struct behind a lock; the downstream is called after unlocking.
private final class DataTaskSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
where Downstream.Input == (data: Data, response: URLResponse), Downstream.Failure == URLError {
    private struct State {
        /// Until completion or cancel.
        var downstream: Downstream?
        var task: URLSessionDataTask?
        var demand = Subscribers.Demand.none
    }

    private let state: LockedValue<State>
    private let request: URLRequest
    private let session: URLSession

    init(request: URLRequest, session: URLSession, downstream: Downstream) {
        self.request = request
        self.session = session
        state = LockedValue(State(downstream: downstream))
    }

    var description: String { "DataTaskPublisher" }

    var customMirror: Mirror {
        let state = self.state.withLock { $0 }
        return Mirror(
            self, children: [("task", state.task as Any), ("downstream", state.downstream as Any), ("demand", state.demand)])
    }

    var playgroundDescription: Any { description }

    func request(_ demand: Subscribers.Demand) {
        require(demand > 0, "DataTaskPublisher: demand must be greater than zero (got \(demand))")
        let task = state.withLock { state -> URLSessionDataTask? in
            guard state.downstream != nil else { return nil }
            state.demand += demand
            guard state.task == nil else { return nil }
            // Creating the task runs no user code (the handler runs only after `resume()`).
            // The handler keeps this subscription alive until the task is done, as Combine's does.
            let handler = TaskCompletion { data, response, error in
                self.complete(data: data, response: response, error: error)
            }
            let task = session.dataTask(with: request) { data, response, error in
                handler.body(data, response, error)
            }
            state.task = task
            return task
        }
        task?.resume()
    }

    private func complete(data: Data?, response: URLResponse?, error: (any Error)?) {
        let ended = state.withLock { state -> State? in
            guard state.downstream != nil else { return nil }
            defer { state = State() }
            return state
        }
        guard let downstream = ended?.downstream else { return }
        switch (response, error) {
        case (let response?, nil):
            _ = downstream.receive((data ?? Data(), response))
            downstream.receive(completion: .finished)
        case (_, let error?):
            downstream.receive(completion: .failure(urlError(from: error)))
        case (nil, nil):
            downstream.receive(completion: .failure(URLError(.unknown)))
        }
    }

    func cancel() {
        let released = state.withLock { state in
            defer { state = State() }
            return state
        }
        released.task?.cancel()
        _ = released.downstream
    }
}

/// The task's error as a `URLError`, with its code and user info (`NSUnderlyingErrorKey` among them).
/// On Darwin an `NSError` in `NSURLErrorDomain` casts to `URLError`; on Linux none does (URLSession
/// and URLProtocols hand over `NSError`s), so the error is rebuilt from its domain and code. An error
/// from another domain becomes `URLError(.unknown)` with the error as its underlying error.
private func urlError(from error: any Error) -> URLError {
    if let error = error as? URLError { return error }
    let error = error as NSError
    if error.domain == NSURLErrorDomain { return URLError(_nsError: error) }
    return URLError(.unknown, userInfo: [NSUnderlyingErrorKey: error])
}

/// The task's completion handler, in a box that is not generic, so the `@Sendable` closure given to
/// URLSession captures no generic metatype.
private final class TaskCompletion: @unchecked Sendable {
    let body: (Data?, URLResponse?, (any Error)?) -> Void

    init(_ body: @escaping (Data?, URLResponse?, (any Error)?) -> Void) {
        self.body = body
    }
}
