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
            Scenario("push-vs-pull adapter, 100 dependents, 1,000 mutations (per mutation)", library: "Ripple",
                operationsPerIteration: 1_000) {
                let counter = Sink()
                return .loop { n in
                    for _ in 0..<n {
                        // A fresh comparison per iteration: 100 dependents, each reading one of ten
                        // properties; 1,000 mutations cycling through the properties.
                        let model = Model10()
                        let reads: [() -> Int] = [
                            { model.p0 }, { model.p1 }, { model.p2 }, { model.p3 }, { model.p4 },
                            { model.p5 }, { model.p6 }, { model.p7 }, { model.p8 }, { model.p9 },
                        ]
                        let comparison = PushPullComparison()
                        for index in 0..<100 {
                            let read = reads[index % 10]
                            comparison.dependent("d\(index)") { counter.total &+= read() }
                        }
                        for i in 0..<1_000 {
                            comparison.mutate("m") {
                                switch i % 10 {
                                case 0: model.p0 = i
                                case 1: model.p1 = i
                                case 2: model.p2 = i
                                case 3: model.p3 = i
                                case 4: model.p4 = i
                                case 5: model.p5 = i
                                case 6: model.p6 = i
                                case 7: model.p7 = i
                                case 8: model.p8 = i
                                default: model.p9 = i
                                }
                            }
                        }
                        counter.total &+= comparison.report.entries.count
                    }
                }
            },
            Scenario("track: a write calls onChange, 1 prop (per write)", library: "Ripple") {
                let counter = Sink()
                let model = Model()
                let token = track({ _ = model.value }) { _ in counter.total &+= 3 }
                return .loop { n in
                    withExtendedLifetime(token) {
                        for i in 0..<n { model.value = i }
                    }
                }
            },
            Scenario("track + cancel, 1 prop", library: "Ripple") {
                let counter = Sink()
                let model = Model()
                return .loop { n in
                    for _ in 0..<n {
                        let token = track({ counter.total &+= model.value }) { _ in counter.total &+= 5 }
                        token.cancel()
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
