/// One measurable operation for one library.
///
/// `make` does the setup (outside any measurement) and returns what to measure:
/// - `.loop`: a closure that performs the operation `n` times; the result is reported per
///   operation, dividing by `operationsPerIteration` (e.g. 100 deliveries per send to 100 sinks);
/// - `.prepared`: like `.loop`, with per-run setup kept out of the measurement;
/// - `.heap`: a closure that creates `n` live instances and returns them; the result is heap bytes
///   per instance.
public struct Scenario: Sendable {
    public enum Measure {
        case loop((Int) -> Void)
        /// `prepare(n)` builds what `n` operations need (not measured); `run` performs them.
        case prepared(prepare: (Int) -> AnyObject, run: (AnyObject) -> Void)
        case heap((Int) -> AnyObject)
    }

    public let name: String
    public let library: String
    public let operationsPerIteration: Int
    public let make: @Sendable () -> Measure

    public init(
        _ name: String, library: String, operationsPerIteration: Int = 1, make: @escaping @Sendable () -> Measure
    ) {
        self.name = name
        self.library = library
        self.operationsPerIteration = operationsPerIteration
        self.make = make
    }

    public var id: String { "\(name) | \(library)" }
}

/// A counter the measured closures write to, so the optimizer cannot drop the work.
///
/// Backed by a pointer: a class property written from another module gets a dynamic exclusivity
/// check (~65 instructions, more than a whole floor operation) in every measured closure.
public final class Sink: @unchecked Sendable {
    @usableFromInline let storage: UnsafeMutablePointer<Int>

    public init() {
        storage = .allocate(capacity: 1)
        storage.initialize(to: 0)
    }

    deinit { storage.deallocate() }

    public var total: Int {
        @inlinable get { storage.pointee }
        @inlinable set { storage.pointee = newValue }
    }
}

/// The floor: a stored closure call, and the heap cost of keeping one closure per "subscriber".
public enum Floor {
    public static func scenarios() -> [Scenario] {
        [
            Scenario("send, 1 sink", library: "floor") {
                let counter = Sink()
                let closure: (Int) -> Void = { counter.total &+= $0 }
                return .loop { n in for i in 0..<n { closure(i) } }
            },
            Scenario("send, 100 sinks (per delivery)", library: "floor", operationsPerIteration: 100) {
                let counter = Sink()
                let closures: [(Int) -> Void] = (0..<100).map { _ in { counter.total &+= $0 } }
                return .loop { n in for i in 0..<n { for closure in closures { closure(i) } } }
            },
            Scenario("merge fan-in, 2 subjects (per send)", library: "floor") {
                let counter = Sink()
                let closure: (Int) -> Void = { counter.total &+= $0 }
                let sources: [(Int) -> Void] = [closure, closure]
                return .loop { n in for i in 0..<n { sources[i & 1](i) } }
            },
            Scenario("combineLatest fan-in, 2 subjects (per send)", library: "floor") {
                let counter = Sink()
                let closure: ((Int, Int)) -> Void = { counter.total &+= $0.0 &+ $0.1 }
                return .loop { n in
                    var latest = (0, 0)
                    for i in 0..<n {
                        if i & 1 == 0 { latest.0 = i } else { latest.1 = i }
                        closure(latest)
                    }
                }
            },
            Scenario("heap per live sink", library: "floor") {
                .heap { n in
                    final class Holder {
                        var closures: [(Int) -> Void] = []
                    }
                    let holder = Holder()
                    holder.closures.reserveCapacity(n)
                    for _ in 0..<n {
                        let counter = Sink()
                        holder.closures.append { counter.total &+= $0 }
                    }
                    return holder
                }
            },
        ]
    }
}
