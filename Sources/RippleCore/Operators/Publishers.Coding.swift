/// A type that defines methods for encoding (`JSONEncoder` conforms in `RippleFoundation`).
public protocol TopLevelEncoder<Output> {
    /// The type this encoder produces.
    associatedtype Output
    /// Encodes an instance of the indicated type.
    func encode<T: Encodable>(_ value: T) throws -> Output
}

/// A type that defines methods for decoding (`JSONDecoder` conforms in `RippleFoundation`).
public protocol TopLevelDecoder<Input> {
    /// The type this decoder accepts.
    associatedtype Input
    /// Decodes an instance of the indicated type.
    func decode<T: Decodable>(_ type: T.Type, from: Input) throws -> T
}

extension Publishers {
    /// A publisher that encodes elements with an encoder; an encoding error cancels the upstream
    /// and fails.
    public struct Encode<Upstream: Publisher, Coder: TopLevelEncoder>: Publisher where Upstream.Output: Encodable {
        public typealias Output = Coder.Output
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        private let encoder: Coder

        /// Creates a `Encode` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, encoder: Coder) {
            self.upstream = upstream
            self.encoder = encoder
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            let encoder = self.encoder
            upstream.receive(subscriber: StepInner.trying(downstream: subscriber, name: "Encode") { try encoder.encode($0) })
        }
    }

    /// A publisher that decodes elements with a decoder; a decoding error cancels the upstream and
    /// fails.
    public struct Decode<Upstream: Publisher, Output: Decodable, Coder: TopLevelDecoder>: Publisher
    where Upstream.Output == Coder.Input {
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        private let decoder: Coder

        /// Creates a `Decode` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, decoder: Coder) {
            self.upstream = upstream
            self.decoder = decoder
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            let decoder = self.decoder
            upstream.receive(subscriber:
                StepInner.trying(downstream: subscriber, name: "Decode") { try decoder.decode(Output.self, from: $0) })
        }
    }
}

extension Publisher where Output: Encodable {
    /// Encodes the output from upstream using a specified encoder.
    public func encode<Coder: TopLevelEncoder>(encoder: Coder) -> Publishers.Encode<Self, Coder> {
        Publishers.Encode(upstream: self, encoder: encoder)
    }
}

extension Publisher {
    /// Decodes the output from the upstream using a specified decoder.
    public func decode<Item: Decodable, Coder: TopLevelDecoder>(
        type: Item.Type, decoder: Coder
    ) -> Publishers.Decode<Self, Item, Coder> where Output == Coder.Input {
        Publishers.Decode(upstream: self, decoder: decoder)
    }
}
