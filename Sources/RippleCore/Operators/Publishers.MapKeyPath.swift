extension Publishers {
    /// A publisher that publishes the value of a key path.
    public struct MapKeyPath<Upstream: Publisher, Output>: Publisher {
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The key path of a property to publish.
        public let keyPath: KeyPath<Upstream.Output, Output>

        /// Creates a `MapKeyPath` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, keyPath: KeyPath<Upstream.Output, Output>) {
            self.upstream = upstream
            self.keyPath = keyPath
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let keyPath = self.keyPath
            upstream.receive(subscriber: ForwardingInner(downstream: subscriber, name: "ValueForKey") { $0[keyPath: keyPath] })
        }
    }

    /// A publisher that publishes the values of two key paths as a tuple.
    public struct MapKeyPath2<Upstream: Publisher, Output0, Output1>: Publisher {
        public typealias Output = (Output0, Output1)
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The key path of a property to publish.
        public let keyPath0: KeyPath<Upstream.Output, Output0>
        /// The key path of a second property to publish.
        public let keyPath1: KeyPath<Upstream.Output, Output1>

        /// Creates a `MapKeyPath2` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(upstream: Upstream, keyPath0: KeyPath<Upstream.Output, Output0>, keyPath1: KeyPath<Upstream.Output, Output1>) {
            self.upstream = upstream
            self.keyPath0 = keyPath0
            self.keyPath1 = keyPath1
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let (keyPath0, keyPath1) = (self.keyPath0, self.keyPath1)
            upstream.receive(subscriber:
                ForwardingInner(downstream: subscriber, name: "ValueForKeys") { ($0[keyPath: keyPath0], $0[keyPath: keyPath1]) })
        }
    }

    /// A publisher that publishes the values of three key paths as a tuple.
    public struct MapKeyPath3<Upstream: Publisher, Output0, Output1, Output2>: Publisher {
        public typealias Output = (Output0, Output1, Output2)
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream
        /// The key path of a property to publish.
        public let keyPath0: KeyPath<Upstream.Output, Output0>
        /// The key path of a second property to publish.
        public let keyPath1: KeyPath<Upstream.Output, Output1>
        /// The key path of a third property to publish.
        public let keyPath2: KeyPath<Upstream.Output, Output2>

        /// Creates a `MapKeyPath3` publisher over `upstream`; the operator method on ``Publisher`` reads better.
        public init(
            upstream: Upstream, keyPath0: KeyPath<Upstream.Output, Output0>, keyPath1: KeyPath<Upstream.Output, Output1>,
            keyPath2: KeyPath<Upstream.Output, Output2>
        ) {
            self.upstream = upstream
            self.keyPath0 = keyPath0
            self.keyPath1 = keyPath1
            self.keyPath2 = keyPath2
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let (keyPath0, keyPath1, keyPath2) = (self.keyPath0, self.keyPath1, self.keyPath2)
            upstream.receive(subscriber:
                ForwardingInner(downstream: subscriber, name: "ValueForKeys") {
                    ($0[keyPath: keyPath0], $0[keyPath: keyPath1], $0[keyPath: keyPath2])
                })
        }
    }
}

extension Publisher {
    /// Publishes the value of a key path.
    ///
    /// ```swift
    /// struct User { var name: String }
    /// let cancellable = Just(User(name: "Ada")).map(\.name).sink { print($0) }
    /// // Prints "Ada"
    /// ```
    public func map<T>(_ keyPath: KeyPath<Output, T>) -> Publishers.MapKeyPath<Self, T> {
        Publishers.MapKeyPath(upstream: self, keyPath: keyPath)
    }

    /// Publishes the values of two key paths as a tuple.
    public func map<T0, T1>(
        _ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>
    ) -> Publishers.MapKeyPath2<Self, T0, T1> {
        Publishers.MapKeyPath2(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1)
    }

    /// Publishes the values of three key paths as a tuple.
    public func map<T0, T1, T2>(
        _ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>, _ keyPath2: KeyPath<Output, T2>
    ) -> Publishers.MapKeyPath3<Self, T0, T1, T2> {
        Publishers.MapKeyPath3(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1, keyPath2: keyPath2)
    }
}
