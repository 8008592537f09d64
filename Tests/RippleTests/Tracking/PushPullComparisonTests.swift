import Ripple
import Testing

/// Rule 43: the comparison adapter, on seed 000's apples/peaches experiment and beyond.
@Suite struct PushPullComparisonTests {
    final class Basket: ObservableObject, @unchecked Sendable {
        @Published var apples = 0
        @Published var peaches = 0
    }

    @Test func applesAndPeaches() {
        let basket = Basket()
        let comparison = PushPullComparison()
        comparison.dependent("ApplesView") { _ = basket.apples }
        comparison.dependent("PeachesView") { _ = basket.peaches }
        comparison.mutate("apples += 1") { basket.apples += 1 }
        comparison.mutate("peaches += 1") { basket.peaches += 1 }
        let report = comparison.report
        // Push: every view observing the object re-runs for every change.
        #expect(report["ApplesView"]?.pushCauses == ["apples", "peaches"])
        #expect(report["PeachesView"]?.pushCauses == ["apples", "peaches"])
        // Pull: only the view that read the changed property re-runs.
        #expect(report["ApplesView"]?.pullCauses == ["apples"])
        #expect(report["PeachesView"]?.pullCauses == ["peaches"])
        #expect(report.mutations == ["apples += 1", "peaches += 1"])
        #expect(
            report.description == """
                dependent     push re-runs          pull re-runs
                ApplesView    2 (apples, peaches)   1 (apples)
                PeachesView   2 (apples, peaches)   1 (peaches)
                """)
    }

    @Test func dependentsFollowWhatTheyReadOnEachRun() {
        final class Screen: ObservableObject, @unchecked Sendable {
            @Published var showDetail = false
            @Published var title = "A"
            @Published var detail = "x"
        }
        let screen = Screen()
        let comparison = PushPullComparison()
        comparison.dependent("Body") {
            _ = screen.title
            if screen.showDetail { _ = screen.detail }
        }
        comparison.mutate("detail = y") { screen.detail = "y" }  // not read yet
        comparison.mutate("showDetail = true") { screen.showDetail = true }
        comparison.mutate("detail = z") { screen.detail = "z" }  // read now
        let entry = comparison.report["Body"]
        #expect(entry?.pullCauses == ["showDetail", "detail"])
        #expect(entry?.pushCauses == ["detail", "showDetail", "detail"])
    }

    @Test func aMutationThatChangesTwoPropertiesReRunsOncePerMode() {
        let basket = Basket()
        let comparison = PushPullComparison()
        comparison.dependent("Both") { _ = basket.apples + basket.peaches }
        comparison.mutate("both") {
            basket.apples = 5
            basket.peaches = 5
        }
        let entry = comparison.report["Both"]
        #expect(entry?.pushReruns == 1)
        #expect(entry?.pullReruns == 1)
        #expect(entry?.pullCauses == ["apples+peaches"])
        #expect(entry?.pushCauses == ["apples+peaches"])
    }

    @Test func registrarBasedModelsAreOnlyVisibleToPull() {
        final class Thermostat: @unchecked Sendable {
            private let registrar = TrackingRegistrar()
            private var _target = 20
            var target: Int {
                get {
                    registrar.access(self, keyPath: \.target)
                    return _target
                }
                set { registrar.withMutation(of: self, keyPath: \.target) { _target = newValue } }
            }
        }
        let thermostat = Thermostat()
        let comparison = PushPullComparison()
        comparison.dependent("Dial") { _ = thermostat.target }
        comparison.mutate("target = 22") { thermostat.target = 22 }
        #expect(comparison.report["Dial"]?.pullReruns == 1)
        #expect(comparison.report["Dial"]?.pushReruns == 0)
    }
}
