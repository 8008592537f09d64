// A sample of testing your own model the way a user would, written only against RippleTesting's
// public API (which re-exports Ripple): values emitted, will-change counts, debounce on virtual
// time, a model that takes an `AnySchedulerOf<DispatchQueue>` tested on virtual time, marble
// diagrams, which properties a view of the model reads, and release on cancel.
import Dispatch
import RippleTesting
import Testing

/// A search model: results follow the query, debounced on an injected scheduler.
final class SearchModel: ObservableObject {
    @Published var query = ""
    @Published private(set) var results: [String] = []
    private var pipeline: AnyCancellable?

    init<S: Scheduler>(catalog: [String], scheduler: S) {
        pipeline = $query
            .dropFirst()
            .debounce(for: .milliseconds(300), scheduler: scheduler)
            .removeDuplicates()
            .map { query in catalog.filter { $0.hasPrefix(query) } }
            .sink { [weak self] in self?.results = $0 }
    }
}

@Suite struct SampleModelTests {
    let catalog = ["swift", "swiftui", "sweater", "ripple"]

    @Test func resultsFollowTheQueryAfterAQuietPeriod() {
        let scheduler = TestScheduler()
        let model = SearchModel(catalog: catalog, scheduler: scheduler)
        let results = model.$results.record()

        model.query = "s"
        scheduler.advance(by: .milliseconds(100))
        model.query = "sw"
        scheduler.advance(by: .milliseconds(299))
        #expect(results.values == [[]])  // still waiting
        scheduler.advance(by: .milliseconds(1))
        #expect(results.values == [[], ["swift", "swiftui", "sweater"]])
        #expect(scheduler.now == .milliseconds(400))
    }

    @Test func everyAssignmentIsOneWillChange() {
        let model = SearchModel(catalog: catalog, scheduler: TestScheduler())
        let changes = willChangeCount(of: model) {
            model.query = "r"
            model.query = "ri"
        }
        #expect(changes == 2)
        #expect(expectWillChange(of: model) { _ = model.query } == 0)  // reading changes nothing
    }

    @Test func aSummaryReadsOnlyTheResults() {
        let model = SearchModel(catalog: catalog, scheduler: TestScheduler())
        #expect(propertiesRead { _ = "\(model.results.count) results" } == ["SearchModel.results"])
    }

    @Test func recorderWithLimitedDemandAndWaiting() throws {
        let recorder = [1, 2, 3].publisher.record(demand: .max(1))
        #expect(recorder.values == [1])
        recorder.request(.max(2))
        #expect(try recorder.waitForValues(count: 3, timeout: .seconds(1)) == [1, 2, 3])
        #expect(try recorder.waitForCompletion(timeout: .seconds(1)) == .finished)
        #expect(recorder.events == [.value(1), .value(2), .value(3), .completion(.finished)])
    }

    @Test func asyncWaitingForValuesFromAnotherThread() async throws {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = subject.record()
        Task.detached {
            for value in 1...3 { subject.send(value) }
        }
        // A generous timeout: the sending task needs a thread of the shared pool, which other
        // tests running in parallel (ten times slower under ThreadSanitizer) may hold for a while.
        #expect(try await recorder.values(count: 3, timeout: .seconds(60)) == [1, 2, 3])
    }

    @Test func waitingThrowsWhenTheValuesNeverCome() {
        let recorder = PassthroughSubject<Int, Never>().record()
        #expect(throws: RecordingTimeout.self) { try recorder.waitForValues(count: 1, timeout: .milliseconds(50)) }
        // A number of seconds works too.
        #expect(throws: RecordingTimeout.self) { try recorder.waitForCompletion(timeout: 0.01) }
    }

    @Test func theModelIsReleasedWhenItsOwnerLetsGo() {
        let lifetimes = LifetimeTracker()
        let scheduler = TestScheduler()
        do {
            let model = SearchModel(catalog: catalog, scheduler: scheduler)
            lifetimes.track(model, "search model")
            let recorder = model.$results.record()
            model.query = "s"
            recorder.cancel()
        }
        scheduler.run()  // let the pending debounce fire into nothing
        #expect(lifetimes.alive.isEmpty)
    }
}

/// A model layer that is not generic: it takes any scheduler that can stand in for a dispatch
/// queue — the main queue in the app, `DispatchQueue.test` in tests.
final class FeedModel: ObservableObject {
    @Published private(set) var status = "idle"
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private var cancellables = Set<AnyCancellable>()

    init(scheduler: AnySchedulerOf<DispatchQueue> = .main) {
        self.scheduler = scheduler
    }

    /// Shows "loading", then the feed's answer; gives up after two seconds.
    func refresh(from feed: some Publisher<String, Never>) {
        status = "loading"
        feed
            .timeout(.seconds(2), scheduler: scheduler)
            .replaceEmpty(with: "timed out")
            .receive(on: scheduler)
            .sink { [weak self] in self?.status = $0 }
            .store(in: &cancellables)
    }
}

@Suite struct SchedulerInjectionSampleTests {
    @Test func aModelTypedForDispatchQueueRunsOnVirtualTime() {
        let scheduler = DispatchQueue.test
        let model = FeedModel(scheduler: scheduler.eraseToAnyScheduler())
        let feed = PassthroughSubject<String, Never>()
        let status = model.$status.record()

        model.refresh(from: feed)
        scheduler.advance(by: .seconds(1))
        feed.send("3 new posts")
        #expect(status.values == ["idle", "loading"])  // delivered on the scheduler: not yet
        scheduler.advance()
        #expect(status.values == ["idle", "loading", "3 new posts"])
    }

    @Test func theTimeoutFiresAfterTwoVirtualSeconds() {
        let scheduler = DispatchQueue.test
        let model = FeedModel(scheduler: scheduler.eraseToAnyScheduler())
        let status = model.$status.record(on: scheduler)

        model.refresh(from: PassthroughSubject<String, Never>())
        scheduler.advance(by: .seconds(5))
        // One frame a second: "idle" at 0 (i), "loading" at 0 (l), "timed out" at 2 s (t).
        let labels: [Character: String] = ["i": "idle", "l": "loading", "t": "timed out"]
        #expect(status.compare(toMarbles: "(il)-t", frame: .seconds(1), values: labels).matches)
    }

    @Test func anImmediateSchedulerRunsEveryTimerAtOnce() {
        // `.immediate` suits code where time does not matter. Here it does: the two-second timeout
        // is scheduled when the feed is subscribed and runs out at once, before the value the feed
        // sends when the subscriber asks.
        let model = FeedModel(scheduler: .immediate)
        model.refresh(from: Just("2 new posts"))
        #expect(model.status == "timed out")
    }

    @Test func aWrongTimelineFailsWithBothMarbleDiagrams() {
        let scheduler = DispatchQueue.test
        let model = FeedModel(scheduler: scheduler.eraseToAnyScheduler())
        let status = model.$status.record(on: scheduler)
        let feed = PassthroughSubject<String, Never>()
        let labels: [Character: String] = ["i": "idle", "l": "loading", "t": "timed out", "n": "1 new post"]

        model.refresh(from: feed)
        scheduler.advance(by: .seconds(3))
        feed.send("1 new post")  // too late: the timeout has already answered
        scheduler.advance(by: .seconds(1))

        // The test expected the post to arrive at 3 s; the message a failing expectation shows:
        let comparison = status.compare(toMarbles: "(il)--n", frame: .seconds(1), values: labels)
        #expect(!comparison.matches)
        #expect(
            comparison.description == """
                expected: (il)--n
                actual:   (il)-t
                               ^ frame 2
                """)
        // In a test, `status.expectMarbles("(il)--n", frame: .seconds(1), values: labels)` records
        // that message as the test's failure.
    }
}
