// Merge: Publishers.Merge … Merge8, MergeMany and `merge(with:)`, all on `MergeCore`.
// (The fixed-arity types are written out rather than nested so their `a`, `b`, … properties
// match Combine's.)

extension Publishers {
    /// A publisher created by applying the merge function to 2 upstream publishers: their elements
    /// interleaved in the order they arrive, finishing when all of them finish.
    ///
    /// Differs from Combine: upstreams are asked for values once the subscriber has asked, and
    /// values beyond the demand (from a subject, which ignores it) are all kept and delivered in
    /// arrival order; Combine asks each upstream for one value at once and keeps only the newest
    /// value per upstream beyond the demand. Ripple drops nothing.
    public struct Merge<A, B>: Publisher
    where A: Publisher, B: Publisher,
        A.Failure == B.Failure, A.Output == B.Output {
        public typealias Output = A.Output
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
            let core = MergeCore(downstream: subscriber, count: 2, name: "Merge")
            core.start()
            core.subscribe(a, at: 0)
            core.subscribe(b, at: 1)
        }
    }

    /// A publisher created by applying the merge function to 3 upstream publishers: their elements
    /// interleaved in the order they arrive, finishing when all of them finish.
    public struct Merge3<A, B, C>: Publisher
    where A: Publisher, B: Publisher, C: Publisher,
        A.Failure == B.Failure, A.Output == B.Output,
        A.Failure == C.Failure, A.Output == C.Output {
        public typealias Output = A.Output
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
            let core = MergeCore(downstream: subscriber, count: 3, name: "Merge3")
            core.start()
            core.subscribe(a, at: 0)
            core.subscribe(b, at: 1)
            core.subscribe(c, at: 2)
        }
    }

    /// A publisher created by applying the merge function to 4 upstream publishers: their elements
    /// interleaved in the order they arrive, finishing when all of them finish.
    public struct Merge4<A, B, C, D>: Publisher
    where A: Publisher, B: Publisher, C: Publisher, D: Publisher,
        A.Failure == B.Failure, A.Output == B.Output,
        A.Failure == C.Failure, A.Output == C.Output,
        A.Failure == D.Failure, A.Output == D.Output {
        public typealias Output = A.Output
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
            let core = MergeCore(downstream: subscriber, count: 4, name: "Merge4")
            core.start()
            core.subscribe(a, at: 0)
            core.subscribe(b, at: 1)
            core.subscribe(c, at: 2)
            core.subscribe(d, at: 3)
        }
    }

    /// A publisher created by applying the merge function to 5 upstream publishers: their elements
    /// interleaved in the order they arrive, finishing when all of them finish.
    public struct Merge5<A, B, C, D, E>: Publisher
    where A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher,
        A.Failure == B.Failure, A.Output == B.Output,
        A.Failure == C.Failure, A.Output == C.Output,
        A.Failure == D.Failure, A.Output == D.Output,
        A.Failure == E.Failure, A.Output == E.Output {
        public typealias Output = A.Output
        public typealias Failure = A.Failure

        /// The first upstream publisher.
        public let a: A
        /// The second upstream publisher.
        public let b: B
        /// The third upstream publisher.
        public let c: C
        /// The fourth upstream publisher.
        public let d: D
        /// The fifth upstream publisher.
        public let e: E

        /// Creates a publisher from the given upstream publishers.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = MergeCore(downstream: subscriber, count: 5, name: "Merge5")
            core.start()
            core.subscribe(a, at: 0)
            core.subscribe(b, at: 1)
            core.subscribe(c, at: 2)
            core.subscribe(d, at: 3)
            core.subscribe(e, at: 4)
        }
    }

    /// A publisher created by applying the merge function to 6 upstream publishers: their elements
    /// interleaved in the order they arrive, finishing when all of them finish.
    public struct Merge6<A, B, C, D, E, F>: Publisher
    where A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher,
        A.Failure == B.Failure, A.Output == B.Output,
        A.Failure == C.Failure, A.Output == C.Output,
        A.Failure == D.Failure, A.Output == D.Output,
        A.Failure == E.Failure, A.Output == E.Output,
        A.Failure == F.Failure, A.Output == F.Output {
        public typealias Output = A.Output
        public typealias Failure = A.Failure

        /// The first upstream publisher.
        public let a: A
        /// The second upstream publisher.
        public let b: B
        /// The third upstream publisher.
        public let c: C
        /// The fourth upstream publisher.
        public let d: D
        /// The fifth upstream publisher.
        public let e: E
        /// The sixth upstream publisher.
        public let f: F

        /// Creates a publisher from the given upstream publishers.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = MergeCore(downstream: subscriber, count: 6, name: "Merge6")
            core.start()
            core.subscribe(a, at: 0)
            core.subscribe(b, at: 1)
            core.subscribe(c, at: 2)
            core.subscribe(d, at: 3)
            core.subscribe(e, at: 4)
            core.subscribe(f, at: 5)
        }
    }

    /// A publisher created by applying the merge function to 7 upstream publishers: their elements
    /// interleaved in the order they arrive, finishing when all of them finish.
    public struct Merge7<A, B, C, D, E, F, G>: Publisher
    where A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher,
        A.Failure == B.Failure, A.Output == B.Output,
        A.Failure == C.Failure, A.Output == C.Output,
        A.Failure == D.Failure, A.Output == D.Output,
        A.Failure == E.Failure, A.Output == E.Output,
        A.Failure == F.Failure, A.Output == F.Output,
        A.Failure == G.Failure, A.Output == G.Output {
        public typealias Output = A.Output
        public typealias Failure = A.Failure

        /// The first upstream publisher.
        public let a: A
        /// The second upstream publisher.
        public let b: B
        /// The third upstream publisher.
        public let c: C
        /// The fourth upstream publisher.
        public let d: D
        /// The fifth upstream publisher.
        public let e: E
        /// The sixth upstream publisher.
        public let f: F
        /// The seventh upstream publisher.
        public let g: G

        /// Creates a publisher from the given upstream publishers.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
            self.g = g
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = MergeCore(downstream: subscriber, count: 7, name: "Merge7")
            core.start()
            core.subscribe(a, at: 0)
            core.subscribe(b, at: 1)
            core.subscribe(c, at: 2)
            core.subscribe(d, at: 3)
            core.subscribe(e, at: 4)
            core.subscribe(f, at: 5)
            core.subscribe(g, at: 6)
        }
    }

    /// A publisher created by applying the merge function to 8 upstream publishers: their elements
    /// interleaved in the order they arrive, finishing when all of them finish.
    public struct Merge8<A, B, C, D, E, F, G, H>: Publisher
    where A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher,
        A.Failure == B.Failure, A.Output == B.Output,
        A.Failure == C.Failure, A.Output == C.Output,
        A.Failure == D.Failure, A.Output == D.Output,
        A.Failure == E.Failure, A.Output == E.Output,
        A.Failure == F.Failure, A.Output == F.Output,
        A.Failure == G.Failure, A.Output == G.Output,
        A.Failure == H.Failure, A.Output == H.Output {
        public typealias Output = A.Output
        public typealias Failure = A.Failure

        /// The first upstream publisher.
        public let a: A
        /// The second upstream publisher.
        public let b: B
        /// The third upstream publisher.
        public let c: C
        /// The fourth upstream publisher.
        public let d: D
        /// The fifth upstream publisher.
        public let e: E
        /// The sixth upstream publisher.
        public let f: F
        /// The seventh upstream publisher.
        public let g: G
        /// The eighth upstream publisher.
        public let h: H

        /// Creates a publisher from the given upstream publishers.
        @inlinable
        public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H) {
            self.a = a
            self.b = b
            self.c = c
            self.d = d
            self.e = e
            self.f = f
            self.g = g
            self.h = h
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = MergeCore(downstream: subscriber, count: 8, name: "Merge8")
            core.start()
            core.subscribe(a, at: 0)
            core.subscribe(b, at: 1)
            core.subscribe(c, at: 2)
            core.subscribe(d, at: 3)
            core.subscribe(e, at: 4)
            core.subscribe(f, at: 5)
            core.subscribe(g, at: 6)
            core.subscribe(h, at: 7)
        }
    }

    /// A publisher created by applying the merge function to an arbitrary number of upstream
    /// publishers.
    public struct MergeMany<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publishers that this publisher receives elements from.
        public let publishers: [Upstream]

        /// Creates a publisher that merges the given publishers.
        @inlinable
        public init(_ upstream: Upstream...) {
            publishers = upstream
        }

        /// Creates a publisher that merges the given publishers.
        @inlinable
        public init<S: Swift.Sequence>(_ upstream: S) where Upstream == S.Element {
            publishers = Array(upstream)
        }

        @inlinable
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let core = MergeCore(downstream: subscriber, count: publishers.count, name: "Merge")
            core.start()
            for (index, publisher) in publishers.enumerated() {
                core.subscribe(publisher, at: index)
            }
        }

        /// Combines elements from this publisher with those from another publisher of the same type.
        @inlinable
        public func merge(with other: Upstream) -> Publishers.MergeMany<Upstream> {
            Publishers.MergeMany(publishers + [other])
        }
    }
}

extension Publishers.MergeMany: Equatable where Upstream: Equatable {}

extension Publishers.Merge: Equatable where A: Equatable, B: Equatable {}
extension Publishers.Merge3: Equatable where A: Equatable, B: Equatable, C: Equatable {}
extension Publishers.Merge4: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable {}
extension Publishers.Merge5: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable {}
extension Publishers.Merge6: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable {}
extension Publishers.Merge7: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable {}
extension Publishers.Merge8: Equatable where A: Equatable, B: Equatable, C: Equatable, D: Equatable, E: Equatable, F: Equatable, G: Equatable, H: Equatable {}

extension Publisher {
    /// Combines elements from this publisher with those from another publisher of the same type,
    /// delivering an interleaved sequence of elements.
    ///
    /// ```swift
    /// let cancellable = [1, 2].publisher.merge(with: [3].publisher).sink { print($0) }
    /// // Prints "1", "2", "3"
    /// ```
    @inlinable
    public func merge<B>(with b: B) -> Publishers.Merge<Self, B>
    where B: Publisher,
        Failure == B.Failure, Output == B.Output {
        Publishers.Merge(self, b)
    }

    /// Combines elements from this publisher with those from 2 other publishers, delivering an
    /// interleaved sequence of elements.
    @inlinable
    public func merge<B, C>(with b: B, _ c: C) -> Publishers.Merge3<Self, B, C>
    where B: Publisher, C: Publisher,
        Failure == B.Failure, Output == B.Output,
        Failure == C.Failure, Output == C.Output {
        Publishers.Merge3(self, b, c)
    }

    /// Combines elements from this publisher with those from 3 other publishers, delivering an
    /// interleaved sequence of elements.
    @inlinable
    public func merge<B, C, D>(with b: B, _ c: C, _ d: D) -> Publishers.Merge4<Self, B, C, D>
    where B: Publisher, C: Publisher, D: Publisher,
        Failure == B.Failure, Output == B.Output,
        Failure == C.Failure, Output == C.Output,
        Failure == D.Failure, Output == D.Output {
        Publishers.Merge4(self, b, c, d)
    }

    /// Combines elements from this publisher with those from 4 other publishers, delivering an
    /// interleaved sequence of elements.
    @inlinable
    public func merge<B, C, D, E>(with b: B, _ c: C, _ d: D, _ e: E) -> Publishers.Merge5<Self, B, C, D, E>
    where B: Publisher, C: Publisher, D: Publisher, E: Publisher,
        Failure == B.Failure, Output == B.Output,
        Failure == C.Failure, Output == C.Output,
        Failure == D.Failure, Output == D.Output,
        Failure == E.Failure, Output == E.Output {
        Publishers.Merge5(self, b, c, d, e)
    }

    /// Combines elements from this publisher with those from 5 other publishers, delivering an
    /// interleaved sequence of elements.
    @inlinable
    public func merge<B, C, D, E, F>(with b: B, _ c: C, _ d: D, _ e: E, _ f: F) -> Publishers.Merge6<Self, B, C, D, E, F>
    where B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher,
        Failure == B.Failure, Output == B.Output,
        Failure == C.Failure, Output == C.Output,
        Failure == D.Failure, Output == D.Output,
        Failure == E.Failure, Output == E.Output,
        Failure == F.Failure, Output == F.Output {
        Publishers.Merge6(self, b, c, d, e, f)
    }

    /// Combines elements from this publisher with those from 6 other publishers, delivering an
    /// interleaved sequence of elements.
    @inlinable
    public func merge<B, C, D, E, F, G>(with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G) -> Publishers.Merge7<Self, B, C, D, E, F, G>
    where B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher,
        Failure == B.Failure, Output == B.Output,
        Failure == C.Failure, Output == C.Output,
        Failure == D.Failure, Output == D.Output,
        Failure == E.Failure, Output == E.Output,
        Failure == F.Failure, Output == F.Output,
        Failure == G.Failure, Output == G.Output {
        Publishers.Merge7(self, b, c, d, e, f, g)
    }

    /// Combines elements from this publisher with those from 7 other publishers, delivering an
    /// interleaved sequence of elements.
    @inlinable
    public func merge<B, C, D, E, F, G, H>(with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H) -> Publishers.Merge8<Self, B, C, D, E, F, G, H>
    where B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher,
        Failure == B.Failure, Output == B.Output,
        Failure == C.Failure, Output == C.Output,
        Failure == D.Failure, Output == D.Output,
        Failure == E.Failure, Output == E.Output,
        Failure == F.Failure, Output == F.Output,
        Failure == G.Failure, Output == G.Output,
        Failure == H.Failure, Output == H.Output {
        Publishers.Merge8(self, b, c, d, e, f, g, h)
    }

}
