import Foundation
import Ripple
import Testing

/// Issue 18: `observe {}` as Swift 6 code writes it — from `@MainActor` code over `@MainActor`
/// models, and from inside an actor — inheriting the caller's isolation.
@Suite struct ObserveIsolationTests {
    @MainActor final class MainModel: ObservableObject {
        @Published var count = 0
        @Published var other = 0
    }

    final class SharedModel: ObservableObject, @unchecked Sendable {
        @Published var count = 0
    }

    @Test @MainActor func fromMainActorCodeOverAMainActorModel() {
        let model = MainModel()
        var seen: [Int] = []  // main-actor state, mutated by the body
        let token = observe { seen.append(model.count) }
        model.other = 1  // not read: nothing
        model.count = 1  // changed on the main actor: re-runs at once
        model.count = 2
        #expect(seen == [0, 1, 2])
        token.cancel()
        model.count = 3
        #expect(seen == [0, 1, 2])
    }

    @Test func aChangeOffTheMainActorReRunsOnTheMainActor() async {
        let model = SharedModel()
        let seen = Locked<[Int]>([])
        let token = await MainActor.run {
            observe {
                MainActor.assumeIsolated {}  // traps unless this run is on the main actor
                seen.withLock { $0.append(model.count) }
            }
        }
        await Task.detached { model.count = 5 }.value
        #expect(await eventually { seen.current == [0, 5] })
        token.cancel()
    }

    actor Store {
        let model: SharedModel
        private(set) var runs: [Int] = []
        private var token: AnyCancellable?

        init(model: SharedModel) {
            self.model = model
        }

        func start() {
            // The body is isolated to this actor: it touches `runs` directly.
            token = observe { self.runs.append(self.model.count) }
        }

        func stop() {
            token?.cancel()
            token = nil
        }
    }

    @Test func fromInsideAnActor() async {
        let model = SharedModel()
        let store = Store(model: model)
        await store.start()
        #expect(await store.runs == [0])
        model.count = 7
        #expect(await eventually { await store.runs == [0, 7] })
        await store.stop()
    }

    /// A view model isolated to no actor, as most written for Combine are, observing itself from its
    /// `init` (issue 27: with a `@Sendable` body this did not compile, "capture of 'self' with
    /// non-Sendable type in a '@Sendable' closure"; `Task { [weak self] in … }` and a `sending`
    /// closure are rejected there too).
    final class SearchViewModel: ObservableObject {
        @Published var query = ""
        private(set) var summaries: [String] = []
        private var token: AnyCancellable?

        init() {
            token = observe { [weak self] in
                guard let self else { return }
                summaries.append("Searching for \(query)")
            }
        }
    }

    @Test func aNonIsolatedViewModelObservesItselfFromItsInit() {
        do {
            let model = SearchViewModel()
            model.query = "ripple"
            model.query = "ripples"
            #expect(model.summaries == ["Searching for ", "Searching for ripple", "Searching for ripples"])
        }
        // The observation captured `self` weakly: the model went away with its token.
        weak var released: SearchViewModel?
        do {
            let model = SearchViewModel()
            released = model
        }
        #expect(released == nil)
    }

    /// The same from a non-isolated `init` with re-runs sent to the main actor.
    final class MainRerunViewModel: ObservableObject, @unchecked Sendable {
        @Published var count = 0
        let seen = Locked<[Int]>([])
        private var token: AnyCancellable?

        init() {
            token = observe(on: .mainActor) { [weak self] in
                guard let self else { return }
                seen.withLock { $0.append(count) }
            }
        }
    }

    @Test func aNonIsolatedInitSendsReRunsToTheMainActor() async {
        let model = MainRerunViewModel()
        await Task.detached { model.count = 3 }.value
        #expect(await eventually { model.seen.current == [0, 3] })
    }

    /// `withTracking`'s `apply` need not be `@Sendable`: it may touch the caller's state.
    @Test @MainActor func withTrackingTakesANonSendableApply() {
        let model = MainModel()
        var reads = 0
        let fired = Locked(0)
        let value = withTracking {
            reads += 1
            return model.count * 2
        } onChange: { _ in fired.withLock { $0 += 1 } }
        model.count = 1
        #expect(value == 0 && reads == 1 && fired.current == 1)
    }
}

/// The README's push/pull sample, verbatim, in the main-actor context top-level code runs in (the
/// model is not `Sendable`, as a user's would not be).
@Suite struct ReadmePushPullSampleTests {
    final class Basket: ObservableObject {
        @Published var apples = 0
        @Published var peaches = 0
    }

    @Test @MainActor func compilesAndRunsAsWritten() {
        let printed = Locked<[String]>([])
        func print(_ items: Any...) { printed.withLock { $0.append(items.map { "\($0)" }.joined(separator: " ")) } }

        let basket = Basket()

        // Object-level push: fires for any change.
        let push = basket.objectWillChange.sink { print("push: something will change") }

        // Property-level pull: re-runs only when what it read changes, reading the new value.
        let pull = observe { print("pull: apples =", basket.apples) }
        // Prints "pull: apples = 0"

        basket.peaches += 1   // Prints "push: something will change" — and nothing from pull
        basket.apples += 1    // Prints "push: something will change", then "pull: apples = 1"

        #expect(
            printed.current == [
                "pull: apples = 0", "push: something will change", "push: something will change",
                "pull: apples = 1",
            ])
        _ = (push, pull)
    }
}
