import BenchHarness
import Observation

@Observable
private final class Model {
    var value = 0
}

@Observable
private final class Model10 {
    var p0 = 0
    var p1 = 0
    var p2 = 0
    var p3 = 0
    var p4 = 0
    var p5 = 0
    var p6 = 0
    var p7 = 0
    var p8 = 0
    var p9 = 0
}

/// Swift's Observation where it has the operation: a plain write and read of an `@Observable`
/// property (the closest thing to an unobserved `@Published` set/get), and its tracking API.
public enum ObservationSuite {
    public static func scenarios() -> [Scenario] {
        [
            Scenario("@Published set, unobserved", library: "Observation") {
                let model = Model()
                return .loop { n in
                    for i in 0..<n { model.value = i }
                }
            },
            Scenario("@Published get", library: "Observation") {
                let counter = Sink()
                let model = Model()
                return .loop { n in
                    var total = 0
                    for _ in 0..<n { total &+= model.value }
                    counter.total &+= total
                }
            },
            Scenario("tracked read, 1 prop", library: "Observation") {
                let counter = Sink()
                let model = Model()
                return .loop { n in
                    withObservationTracking {
                        var total = 0
                        for _ in 0..<n { total &+= model.value }
                        counter.total &+= total
                    } onChange: {}
                }
            },
            Scenario("tracked read, 10 props (per read)", library: "Observation", operationsPerIteration: 10) {
                let counter = Sink()
                let model = Model10()
                return .loop { n in
                    withObservationTracking {
                        var total = 0
                        for _ in 0..<n {
                            total &+= model.p0 &+ model.p1 &+ model.p2 &+ model.p3 &+ model.p4
                            total &+= model.p5 &+ model.p6 &+ model.p7 &+ model.p8 &+ model.p9
                        }
                        counter.total &+= total
                    } onChange: {}
                }
            },
            Scenario("arm + mutate + fire, 1 prop", library: "Observation") {
                let counter = Sink()
                let model = Model()
                return .loop { n in
                    for i in 0..<n {
                        withObservationTracking { counter.total &+= model.value } onChange: { counter.total &+= 1 }
                        model.value = i
                    }
                }
            },
        ]
    }
}
