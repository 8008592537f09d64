/// A publisher that allows for recording a series of inputs and a completion, for later playback
/// to each subscriber.
///
/// ```swift
/// let record = Record<Int, Never> { recording in
///     recording.receive(1)
///     recording.receive(2)
///     recording.receive(completion: .finished)
/// }
/// let cancellable = record.sink { print($0) }
/// // Prints "1", "2"
/// ```
///
/// Differs from Combine: a subscriber that cancels inside `receive(_:)` of the last recorded value
/// gets no `.finished` (Combine sends it): nothing is delivered after `cancel()` returns.
public struct Record<Output, Failure: Error>: Publisher {
    /// A recorded sequence of outputs, followed by a completion value.
    public struct Recording {
        /// The type of value a recording receives: the publisher's output.
        public typealias Input = Output

        /// The recorded outputs.
        public private(set) var output: [Output]
        /// The recorded completion.
        public private(set) var completion: Subscribers.Completion<Failure>
        private var completed: Bool

        /// Creates an empty recording (it completes with `.finished` unless told otherwise).
        public init() {
            output = []
            completion = .finished
            completed = false
        }

        /// Creates a complete recording with the given outputs and completion.
        public init(output: [Output], completion: Subscribers.Completion<Failure> = .finished) {
            self.output = output
            self.completion = completion
            self.completed = true
        }

        /// Adds an output to the recording. Traps if the recording is complete.
        public mutating func receive(_ input: Input) {
            require(!completed, "Record.Recording: receive(_:) called after receive(completion:)")
            output.append(input)
        }

        /// Adds a completion to the recording. Traps if the recording is already complete.
        public mutating func receive(completion: Subscribers.Completion<Failure>) {
            require(!completed, "Record.Recording: receive(completion:) called twice")
            self.completion = completion
            completed = true
        }
    }

    /// The recorded output and completion.
    public let recording: Recording

    /// Creates a publisher to interactively record a series of outputs and a completion.
    public init(record: (inout Recording) -> Void) {
        var recording = Recording()
        record(&recording)
        self.recording = recording
    }

    /// Creates a record publisher from an existing recording.
    public init(recording: Recording) {
        self.recording = recording
    }

    /// Creates a record publisher to publish the provided outputs, followed by the completion.
    public init(output: [Output], completion: Subscribers.Completion<Failure>) {
        self.recording = Recording(output: output, completion: completion)
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        SequenceSubscription.start(recording.output, then: recording.completion, to: subscriber, origin: .record)
    }
}

extension Record.Recording: Sendable where Output: Sendable, Failure: Sendable {}
extension Record: Sendable where Output: Sendable, Failure: Sendable {}

extension Record.Recording: Codable where Output: Codable, Failure: Codable {
    private enum CodingKeys: String, CodingKey {
        case output
        case completion
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            output: try container.decode([Output].self, forKey: .output),
            completion: try container.decode(Subscribers.Completion<Failure>.self, forKey: .completion))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(output, forKey: .output)
        try container.encode(completion, forKey: .completion)
    }

    /// Encodes the recording into `encoder` (Combine's spelling of ``encode(to:)``).
    public func encode(into encoder: any Encoder) throws {
        try encode(to: encoder)
    }
}

/// Encoded as Combine's synthesized form: `{"recording": {"output": […], "completion": …}}`.
extension Record: Codable where Output: Codable, Failure: Codable {
    private enum CodingKeys: String, CodingKey {
        case recording
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(recording: try container.decode(Recording.self, forKey: .recording))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(recording, forKey: .recording)
    }
}
