import Observation
import Ripple
import RippleObservation

/// Chapter 3: seed 000's apples and peaches, under object-level push and property-level pull.
struct PushVsPullChapter: Chapter {
    let title = "Push vs pull: AppleView and PeachView (seed 000)"
    let summary = """
        Two views share one model: AppleView reads numberOfApples, PeachView reads numberOfPeaches.
        With ObservableObject, observation is per object: any change re-runs both bodies. With
        property-level tracking (Ripple's, or @Observable), only the body that read the changed
        property re-runs.
        """

    /// The seed's ObservableObject model.
    final class FruitModel: ObservableObject, Observable, @unchecked Sendable {
        @Published var numberOfApples = 0
        @Published var numberOfPeaches = 0
    }

    /// The seed's @Observable model.
    @Observable final class ObservableFruitModel: @unchecked Sendable {
        var numberOfApples = 0
        var numberOfPeaches = 0
    }

    func run() async {
        show("Part 1: one ObservableObject model, the same two bodies under push and under pull")
        let model = FruitModel()
        let comparison = PushPullComparison()
        comparison.dependent("AppleView") { show("    Executing AppleView body (apples: \(model.numberOfApples))") }
        comparison.dependent("PeachView") { show("    Executing PeachView body (peaches: \(model.numberOfPeaches))") }
        show("  (each body ran once above per mode: that is the first render)")
        for (label, change) in [
            ("tap AppleView's stepper: numberOfApples += 1", { model.numberOfApples += 1 }),
            ("tap PeachView's stepper: numberOfPeaches += 1", { model.numberOfPeaches += 1 }),
            ("tap AppleView's stepper again", { model.numberOfApples += 1 }),
        ] as [(String, () -> Void)] {
            show("  → \(label)")
            comparison.mutate(label, change)
        }
        print("")
        show("Report (re-runs after the first render, with the property behind each):")
        for line in comparison.report.description.split(separator: "\n") {
            show("  " + line)
        }
        show("  Push re-ran both views 3 times; pull re-ran each only for its own property.")
        print("")

        show("Part 2: the @Observable version, with Swift's own Observation")
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

        show("Part 3: the ObservableObject model seen by Swift's Observation, through RippleObservation")
        ObservationBridge.install()
        let bridged = NameLog()
        withObservationTracking { _ = model.numberOfApples } onChange: { bridged.append("AppleView") }
        withObservationTracking { _ = model.numberOfPeaches } onChange: { bridged.append("PeachView") }
        model.numberOfPeaches += 1
        show("  after numberOfPeaches += 1 on the @Published model, invalidated: \(bridged.take())")
        show("  (FruitModel adopts Observable; ObservationBridge.install() connects @Published to it)")
    }
}
