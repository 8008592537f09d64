// CombineLatest, CombineLatest3 and CombineLatest4 on `CombinerCore` driven by
// `CombineLatestMachine`; the transform overloads are `map` on top, as in Combine.

extension Publishers {
    /// A publisher that receives and combines the latest elements from 2 publishers.
    ///
    /// It emits a tuple only after every upstream has emitted, then one each time any of them
    /// emits; it finishes when all of them finish and fails as soon as one fails.
    ///
    /// Differs from Combine: a value an upstream sends from inside the subscriber's `receive(_:)`
    /// is delivered after the current one (Ripple's rule for every re-entrant send); Combine does
    /// not deliver it.
    public struct CombineLatest<A, B>: Publisher
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
            let core = CombinerCore<S, CombineLatestMachine>(downstream: subscriber, count: 2, name: "CombineLatest")
            let childA = CombinerChild<S, CombineLatestMachine, A.Output, Failure>(core: core, index: 0)
            let childB = CombinerChild<S, CombineLatestMachine, B.Output, Failure>(core: core, index: 1)
            core.start { (childA.take(), childB.take()) }
            core.subscribe(a, child: childA)
            core.subscribe(b, child: childB)
        }
    }

    /// A publisher that receives and combines the latest elements from 3 publishers.
    ///
    /// It emits a tuple only after every upstream has emitted, then one each time any of them
    /// emits; it finishes when all of them finish and fails as soon as one fails.
    public struct CombineLatest3<A, B, C>: Publisher
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
            let core = CombinerCore<S, CombineLatestMachine>(downstream: subscriber, count: 3, name: "CombineLatest")
            let childA = CombinerChild<S, CombineLatestMachine, A.Output, Failure>(core: core, index: 0)
            let childB = CombinerChild<S, CombineLatestMachine, B.Output, Failure>(core: core, index: 1)
            let childC = CombinerChild<S, CombineLatestMachine, C.Output, Failure>(core: core, index: 2)
            core.start { (childA.take(), childB.take(), childC.take()) }
            core.subscribe(a, child: childA)
            core.subscribe(b, child: childB)
            core.subscribe(c, child: childC)
        }
    }

    /// A publisher that receives and combines the latest elements from 4 publishers.
    ///
    /// It emits a tuple only after every upstream has emitted, then one each time any of them
    /// emits; it finishes when all of them finish and fails as soon as one fails.
    public struct CombineLatest4<A, B, C, D>: Publisher
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
            let core = CombinerCore<S, CombineLatestMachine>(downstream: subscriber, count: 4, name: "CombineLatest")
            let childA = CombinerChild<S, CombineLatestMachine, A.Output, Failure>(core: core, index: 0)
            let childB = CombinerChild<S, CombineLatestMachine, B.Output, Failure>(core: core, index: 1)
            let childC = CombinerChild<S, CombineLatestMachine, C.Output, Failure>(core: core, index: 2)
            let childD = CombinerChild<S, CombineLatestMachine, D.Output, Failure>(core: core, index: 3)
            core.start { (childA.take(), childB.take(), childC.take(), childD.take()) }
            core.subscribe(a, child: childA)
            core.subscribe(b, child: childB)
            core.subscribe(c, child: childC)
            core.subscribe(d, child: childD)
        }
    }
}

extension Publishers.CombineLatest: Equatable where A: Equatable, B: Equatable {}
extension Publishers.CombineLatest3: Equatable where A: Equatable, B: Equatable, C: Equatable {}
extension Publishers.CombineLatest4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}

extension Publisher {
    /// Subscribes to an additional publisher and publishes a tuple upon receiving output from any of them (once all have emitted).
    ///
    /// ```swift
    /// let name = CurrentValueSubject<String, Never>("Ada")
    /// let age = CurrentValueSubject<Int, Never>(36)
    /// let cancellable = name.combineLatest(age).sink { print($0, $1) }
    /// // Prints "Ada 36"
    /// age.send(37)
    /// // Prints "Ada 37"
    /// ```
    @inlinable
    public func combineLatest<P>(_ p: P) -> Publishers.CombineLatest<Self, P>
    where P: Publisher,
        Failure == P.Failure {
        Publishers.CombineLatest(self, p)
    }

    /// Subscribes to an additional publisher and publishes a tuple upon receiving output from any of them (once all have emitted), transformed by a closure.
    @inlinable
    public func combineLatest<P, T>(
        _ p: P, _ transform: @escaping (Output, P.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest<Self, P>, T>
    where P: Publisher,
        Failure == P.Failure {
        Publishers.CombineLatest(self, p).map(transform)
    }

    /// Subscribes to 2 additional publishers and publishes a tuple upon receiving output from any of them (once all have emitted).
    @inlinable
    public func combineLatest<P, Q>(_ p: P, _ q: Q) -> Publishers.CombineLatest3<Self, P, Q>
    where P: Publisher, Q: Publisher,
        Failure == P.Failure,
        Failure == Q.Failure {
        Publishers.CombineLatest3(self, p, q)
    }

    /// Subscribes to 2 additional publishers and publishes a tuple upon receiving output from any of them (once all have emitted), transformed by a closure.
    @inlinable
    public func combineLatest<P, Q, T>(
        _ p: P, _ q: Q, _ transform: @escaping (Output, P.Output, Q.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest3<Self, P, Q>, T>
    where P: Publisher, Q: Publisher,
        Failure == P.Failure,
        Failure == Q.Failure {
        Publishers.CombineLatest3(self, p, q).map(transform)
    }

    /// Subscribes to 3 additional publishers and publishes a tuple upon receiving output from any of them (once all have emitted).
    @inlinable
    public func combineLatest<P, Q, R>(_ p: P, _ q: Q, _ r: R) -> Publishers.CombineLatest4<Self, P, Q, R>
    where P: Publisher, Q: Publisher, R: Publisher,
        Failure == P.Failure,
        Failure == Q.Failure,
        Failure == R.Failure {
        Publishers.CombineLatest4(self, p, q, r)
    }

    /// Subscribes to 3 additional publishers and publishes a tuple upon receiving output from any of them (once all have emitted), transformed by a closure.
    @inlinable
    public func combineLatest<P, Q, R, T>(
        _ p: P, _ q: Q, _ r: R, _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
    ) -> Publishers.Map<Publishers.CombineLatest4<Self, P, Q, R>, T>
    where P: Publisher, Q: Publisher, R: Publisher,
        Failure == P.Failure,
        Failure == Q.Failure,
        Failure == R.Failure {
        Publishers.CombineLatest4(self, p, q, r).map(transform)
    }
}
