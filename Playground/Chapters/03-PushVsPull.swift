import Observation
import Ripple
import RippleObservation

/// Chapter 3: apples and peaches, under object-level push and property-level pull.
struct PushVsPullChapter: Chapter {
    let title = "Push vs pull: AppleView and PeachView"
    let summary = """
        Two views share one model: AppleView reads numberOfApples, PeachView reads numberOfPeaches.
        With ObservableObject, observation is per object: any change re-runs both bodies. With
        property-level tracking (Ripple's, or @Observable), only the body that read the changed
        property re-runs.
        """

    /// The ObservableObject model.
    final class FruitModel: ObservableObject, Observable, @unchecked Sendable {
        @Published var numberOfApples = 0
        @Published var numberOfPeaches = 0
    }

    /// The @Observable model.
    @Observable final class ObservableFruitModel: @unchecked Sendable {
        var numberOfApples = 0
        var numberOfPeaches = 0
    }

    func run() async {
        show("Example 3.1: one ObservableObject model, the same two bodies under push and under pull")
        let model = FruitModel()
        let comparison = PushPullComparison()
        comparison.dependent("AppleView") { _ = model.numberOfApples }
        comparison.dependent("PeachView") { _ = model.numberOfPeaches }
        show("  first render: both bodies run once under push and once under pull")
        var before = comparison.report
        for (label, change) in [
            ("tap AppleView's stepper: numberOfApples += 1", { model.numberOfApples += 1 }),
            ("tap PeachView's stepper: numberOfPeaches += 1", { model.numberOfPeaches += 1 }),
            ("tap AppleView's stepper again", { model.numberOfApples += 1 }),
        ] as [(String, () -> Void)] {
            show("  → \(label)")
            comparison.mutate(label, change)
            let after = comparison.report
            let pushed = after.entries.filter { $0.pushReruns > (before[$0.dependent]?.pushReruns ?? 0) }
            let pulled = after.entries.filter { $0.pullReruns > (before[$0.dependent]?.pullReruns ?? 0) }
            show("    push re-ran: " + pushed.map { "\($0.dependent) body" }.joined(separator: ", "))
            show("    pull re-ran: " + pulled.map { "\($0.dependent) body" }.joined(separator: ", "))
            before = after
        }
        print("")
        show("Report (re-runs after the first render, with the property behind each):")
        for line in comparison.report.description.split(separator: "\n") {
            show("  " + line)
        }
        show("  Push re-ran both views 3 times; pull re-ran each only for its own property.")
        print("")

        show("Example 3.2: the @Observable version, with Swift's own Observation")
        let observable = ObservableFruitModel()
        let renders = NameLog()
        func render(_ name: String, _ body: @escaping @Sendable () -> Void) {
            // A tiny stand-in for SwiftUI: run the body under withObservationTracking and note when
            // Observation says it must run again.
            withObservationTracking(body) { renders.append(name) }
        }
        render("AppleView") { _ = observable.numberOfApples }
        render("PeachView") { _ = observable.numberOfPeaches }
        observable.numberOfApples += 1
        show("  after numberOfApples += 1, invalidated: \(renders.take())")
        render("AppleView") { _ = observable.numberOfApples }
        observable.numberOfPeaches += 1
        show("  after numberOfPeaches += 1, invalidated: \(renders.take())")
        print("")

        show("Example 3.3: the ObservableObject model seen by Swift's Observation, through RippleObservation")
        ObservationBridge.install()
        let bridged = NameLog()
        withObservationTracking { _ = model.numberOfApples } onChange: { bridged.append("AppleView") }
        withObservationTracking { _ = model.numberOfPeaches } onChange: { bridged.append("PeachView") }
        model.numberOfPeaches += 1
        show("  after numberOfPeaches += 1 on the @Published model, invalidated: \(bridged.take())")
        show("  (FruitModel adopts Observable; ObservationBridge.install() connects @Published to it)")
        print("")

        show("Example 3.4: the @Observable model in Ripple's tracking, through the same bridge")
        let pulled = PushPullComparison()
        pulled.dependent("AppleView") { _ = observable.numberOfApples }
        pulled.dependent("PeachView") { _ = observable.numberOfPeaches }
        pulled.mutate("numberOfPeaches += 1") { observable.numberOfPeaches += 1 }
        for entry in pulled.report.entries {
            show("  \(entry.dependent): pull re-runs \(entry.pullReruns), push re-runs \(entry.pushReruns)")
        }
        show("  Only PeachView re-ran; an @Observable model has no objectWillChange, so push sees nothing.")
    }
}
