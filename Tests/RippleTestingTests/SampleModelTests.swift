// A sample of testing your own model the way a user would, written only against RippleTesting's
// public API (which re-exports Ripple): values emitted, will-change counts, debounce on virtual
// time, which properties a view of the model reads, and release on cancel.
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
        #expect(try recorder.waitForValues(count: 3, timeout: 1) == [1, 2, 3])
        #expect(try recorder.waitForCompletion(timeout: 1) == .finished)
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
        #expect(try await recorder.values(count: 3, timeout: 60) == [1, 2, 3])
    }

    @Test func waitingThrowsWhenTheValuesNeverCome() {
        let recorder = PassthroughSubject<Int, Never>().record()
        #expect(throws: RecordingTimeout.self) { try recorder.waitForValues(count: 1, timeout: 0.05) }
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
