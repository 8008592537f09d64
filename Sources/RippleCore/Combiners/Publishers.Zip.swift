// Zip, Zip3 and Zip4 on `CombinerCore` driven by `ZipMachine`; the transform overloads are `map` on
// top, as in Combine.

extension Publishers {
    /// A publisher created by applying the zip function to 2 upstream publishers.
    ///
    /// It pairs the n-th elements of every upstream; it finishes as soon as an upstream that has
    /// finished has no element left to pair, and fails as soon as one fails; then it cancels the
    /// others. As in Combine, the upstreams are subscribed first and the subscriber gets its
    /// subscription once every upstream has handed over its own.
    ///
    /// Differs from Combine: a subscriber that cancels inside `receive(_:)` of the last tuple gets
    /// no `.finished` (Combine sends it): nothing is delivered after `cancel()` returns.
    public struct Zip<A, B>: Publisher
    where A: Publisher, B: Publisher,
        A.Failure == B.Failure {
        public typealias Output = (A.Output, B.Output)
        public typealias Failure = A.Failure

        /// The first upstream publisher.
        public let a: A
        /// The second upstream publisher.
        public let b: B

        /// Creates a publisher from the given upstream publishers.
        @inlinable
        public init(_ a: A, _ b: B) {
            self.a = a
            self.b = b
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = CombinerCore<S, ZipMachine>(downstream: subscriber, count: 2, name: "Zip")
            let childA = CombinerChild<S, ZipMachine, A.Output, Failure>(core: core, index: 0)
            let childB = CombinerChild<S, ZipMachine, B.Output, Failure>(core: core, index: 1)
            core.prepare { (childA.take(), childB.take()) }
            core.subscribe(a, child: childA)
            core.subscribe(b, child: childB)
        }
    }

    /// A publisher created by applying the zip function to 3 upstream publishers.
    ///
    /// It pairs the n-th elements of every upstream; it finishes as soon as an upstream that has
    /// finished has no element left to pair, and fails as soon as one fails; then it cancels the
    /// others. As in Combine, the upstreams are subscribed first and the subscriber gets its
    /// subscription once every upstream has handed over its own.
    public struct Zip3<A, B, C>: Publisher
    where A: Publisher, B: Publisher, C: Publisher,
        A.Failure == B.Failure,
        A.Failure == C.Failure {
        public typealias Output = (A.Output, B.Output, C.Output)
        public typealias Failure = A.Failure

        /// The first upstream publisher.
        public let a: A
        /// The second upstream publisher.
        public let b: B
        /// The third upstream publisher.
        public let c: C

        /// Creates a publisher from the given upstream publishers.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C) {
            self.a = a
            self.b = b
            self.c = c
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = CombinerCore<S, ZipMachine>(downstream: subscriber, count: 3, name: "Zip3")
            let childA = CombinerChild<S, ZipMachine, A.Output, Failure>(core: core, index: 0)
            let childB = CombinerChild<S, ZipMachine, B.Output, Failure>(core: core, index: 1)
            let childC = CombinerChild<S, ZipMachine, C.Output, Failure>(core: core, index: 2)
            core.prepare { (childA.take(), childB.take(), childC.take()) }
            core.subscribe(a, child: childA)
            core.subscribe(b, child: childB)
            core.subscribe(c, child: childC)
        }
    }

    /// A publisher created by applying the zip function to 4 upstream publishers.
    ///
    /// It pairs the n-th elements of every upstream; it finishes as soon as an upstream that has
    /// finished has no element left to pair, and fails as soon as one fails; then it cancels the
    /// others. As in Combine, the upstreams are subscribed first and the subscriber gets its
    /// subscription once every upstream has handed over its own.
    public struct Zip4<A, B, C, D>: Publisher
    where A: Publisher, B: Publisher, C: Publisher, D: Publisher,
        A.Failure == B.Failure,
        A.Failure == C.Failure,
        A.Failure == D.Failure {
        public typealias Output = (A.Output, B.Output, C.Output, D.Output)
        public typealias Failure = A.Failure

        /// The first upstream publisher.
        public let a: A
        /// The second upstream publisher.
        public let b: B
        /// The third upstream publisher.
        public let c: C
        /// The fourth upstream publisher.
        public let d: D

        /// Creates a publisher from the given upstream publishers.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = CombinerCore<S, ZipMachine>(downstream: subscriber, count: 4, name: "Zip4")
            let childA = CombinerChild<S, ZipMachine, A.Output, Failure>(core: core, index: 0)
            let childB = CombinerChild<S, ZipMachine, B.Output, Failure>(core: core, index: 1)
            let childC = CombinerChild<S, ZipMachine, C.Output, Failure>(core: core, index: 2)
            let childD = CombinerChild<S, ZipMachine, D.Output, Failure>(core: core, index: 3)
            core.prepare { (childA.take(), childB.take(), childC.take(), childD.take()) }
            core.subscribe(a, child: childA)
            core.subscribe(b, child: childB)
            core.subscribe(c, child: childC)
            core.subscribe(d, child: childD)
        }
    }
}

extension Publishers.Zip: Equatable where A: Equatable, B: Equatable {}
extension Publishers.Zip3: Equatable where A: Equatable, B: Equatable, C: Equatable {}
extension Publishers.Zip4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}

extension Publisher {
    /// Subscribes to an additional publisher and publishes a tuple upon receiving output from all of them (the n-th element of each).
    ///
    /// ```swift
    /// let cancellable = [1, 2, 3].publisher.zip(["a", "b"].publisher).sink { print($0, $1) }
    /// // Prints "1 a", "2 b"
    /// ```
    @inlinable
    public func zip<P>(_ p: P) -> Publishers.Zip<Self, P>
    where P: Publisher,
        Failure == P.Failure {
        Publishers.Zip(self, p)
    }

    /// Subscribes to an additional publisher and publishes a tuple upon receiving output from all of them (the n-th element of each), transformed by a closure.
    @inlinable
    public func zip<P, T>(
        _ p: P, _ transform: @escaping (Output, P.Output) -> T
    ) -> Publishers.Map<Publishers.Zip<Self, P>, T>
    where P: Publisher,
        Failure == P.Failure {
        Publishers.Zip(self, p).map(transform)
    }

    /// Subscribes to 2 additional publishers and publishes a tuple upon receiving output from all of them (the n-th element of each).
    @inlinable
    public func zip<P, Q>(_ p: P, _ q: Q) -> Publishers.Zip3<Self, P, Q>
    where P: Publisher, Q: Publisher,
        Failure == P.Failure,
        Failure == Q.Failure {
        Publishers.Zip3(self, p, q)
    }

    /// Subscribes to 2 additional publishers and publishes a tuple upon receiving output from all of them (the n-th element of each), transformed by a closure.
    @inlinable
    public func zip<P, Q, T>(
        _ p: P, _ q: Q, _ transform: @escaping (Output, P.Output, Q.Output) -> T
    ) -> Publishers.Map<Publishers.Zip3<Self, P, Q>, T>
    where P: Publisher, Q: Publisher,
        Failure == P.Failure,
        Failure == Q.Failure {
        Publishers.Zip3(self, p, q).map(transform)
    }

    /// Subscribes to 3 additional publishers and publishes a tuple upon receiving output from all of them (the n-th element of each).
    @inlinable
    public func zip<P, Q, R>(_ p: P, _ q: Q, _ r: R) -> Publishers.Zip4<Self, P, Q, R>
    where P: Publisher, Q: Publisher, R: Publisher,
        Failure == P.Failure,
        Failure == Q.Failure,
        Failure == R.Failure {
        Publishers.Zip4(self, p, q, r)
    }

    /// Subscribes to 3 additional publishers and publishes a tuple upon receiving output from all of them (the n-th element of each), transformed by a closure.
    @inlinable
    public func zip<P, Q, R, T>(
        _ p: P, _ q: Q, _ r: R, _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
    ) -> Publishers.Map<Publishers.Zip4<Self, P, Q, R>, T>
    where P: Publisher, Q: Publisher, R: Publisher,
        Failure == P.Failure,
        Failure == Q.Failure,
        Failure == R.Failure {
        Publishers.Zip4(self, p, q, r).map(transform)
    }
}
