import BenchHarness
import Observation

@Observable
private final class Model {
    var value = 0
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
                    for _ in 0..<n {
                        withObservationTracking { counter.total &+= model.value } onChange: {}
                    }
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
