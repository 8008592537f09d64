// Ripple's pull-based tracking (not in OpenCombine; Observation's counterparts are in
// ObservationScenarios). Compiled only into RippleScenarios.
#if !OPENCOMBINE
import BenchHarness
import Ripple

// `Model` and `Model10` are declared in Scenarios.swift.

public enum TrackingSuite {
    public static func scenarios() -> [Scenario] {
        [
            Scenario("tracked read, 1 prop", library: "Ripple") {
                let counter = Sink()
                let model = Model()
                return .loop { n in
                    withTracking {
                        var total = 0
                        for _ in 0..<n { total &+= model.value }
                        counter.total &+= total
                    } onChange: { _ in }
                }
            },
            Scenario("tracked read, 10 props (per read)", library: "Ripple", operationsPerIteration: 10) {
                let counter = Sink()
                let model = Model10()
                return .loop { n in
                    withTracking {
                        var total = 0
                        for _ in 0..<n {
                            total &+= model.p0 &+ model.p1 &+ model.p2 &+ model.p3 &+ model.p4
                            total &+= model.p5 &+ model.p6 &+ model.p7 &+ model.p8 &+ model.p9
                        }
                        counter.total &+= total
                    } onChange: { _ in }
                }
            },
            Scenario("arm + mutate + fire, 1 prop", library: "Ripple") {
                let counter = Sink()
                let model = Model()
                return .loop { n in
                    for i in 0..<n {
                        withTracking { counter.total &+= model.value } onChange: { _ in counter.total &+= 1 }
                        model.value = i
                    }
                }
            },
            Scenario("observe {} re-run, 1 prop", library: "Ripple") {
                let counter = Sink()
                let model = Model()
                let token = observe { counter.total &+= model.value }
                return .loop { n in
                    withExtendedLifetime(token) {
                        for i in 0..<n { model.value = i }
                    }
                }
            },
        ]
    }
}
#endif
