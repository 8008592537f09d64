// The leak check users write for their models: subscriptions made in a body and still alive after it.
import RippleTesting
import Testing

/// A model that keeps its subscriptions in `cancellables`; `leaky` makes a closure capture the
/// model strongly, so model and subscription keep each other alive.
private final class LeakyModel {
    let query = PassthroughSubject<String, Never>()
    var results: [String] = []
    var cancellables = Set<AnyCancellable>()

    init(leaky: Bool) {
        if leaky {
            query.map { $0.uppercased() }.sink { self.results.append($0) }.store(in: &cancellables)
        } else {
            query.map { $0.uppercased() }.sink { [weak self] in self?.results.append($0) }.store(in: &cancellables)
        }
        query.filter { !$0.isEmpty }.removeDuplicates().sink { _ in }.store(in: &cancellables)
    }
}

@Suite struct LeakCheckTests {
    @Test func aLeakIsFoundWithTheChainThatMadeIt() {
        var weakModel: LeakyModel?
        let leaks = leakedSubscriptions {
            let model = LeakyModel(leaky: true)
            model.query.send("ripple")
            weakModel = model
        }
        // The cycle keeps both of the model's subscriptions alive.
        #expect(leaks.map(\.chain) == [
            "PassthroughSubject → Map → Sink", "PassthroughSubject → Filter → RemoveDuplicates → Sink",
        ])
        #expect(leaks.map(\.valuesDelivered) == [1, 1])
        #expect(weakModel?.results == ["RIPPLE"])
        weakModel?.cancellables.removeAll()  // breaks the cycle
    }

    @Test func noneIsReportedForACleanBody() {
        let leaks = expectNoLeakedSubscriptions {
            let model = LeakyModel(leaky: false)
            model.query.send("ripple")
            #expect(model.results == ["RIPPLE"])
        }
        #expect(leaks.isEmpty)
    }

    @Test func theExpectationRecordsAnIssueListingTheLeaks() {
        var kept: LeakyModel?
        withKnownIssue {
            expectNoLeakedSubscriptions {
                kept = LeakyModel(leaky: true)
            }
        } matching: { issue in
            let text = String(describing: issue)
            return text.contains("2 subscriptions made in the body are still alive")
                && text.contains("PassthroughSubject → Map → Sink: demand unlimited, 0 values, active")
        }
        kept?.cancellables.removeAll()
    }

    @Test func subscriptionsMadeOutsideTheBodyAreNotReported() {
        let outside = LeakyModel(leaky: false)
        let leaks = leakedSubscriptions {
            outside.query.send("a")
        }
        #expect(leaks.isEmpty)
        withExtendedLifetime(outside) {}
    }

    @Test func anAsyncBodyIsChecked() async {
        var kept: LeakyModel?
        let leaks = await leakedSubscriptions {
            await Task.yield()
            kept = LeakyModel(leaky: true)
        }
        #expect(leaks.count == 2)
        kept?.cancellables.removeAll()
    }

    /// Many checks at once, as parallel tests run them: each reports its own leaks only.
    @Test func parallelChecksReportOnlyTheirOwnLeaks() async {
        let counts = await withTaskGroup(of: Int.self) { group in
            for leaky in [true, false, true, false, true, false] {
                group.addTask {
                    var kept: LeakyModel?
                    let leaks = leakedSubscriptions {
                        let model = LeakyModel(leaky: leaky)
                        if leaky { kept = model }  // to break the cycle afterwards
                    }
                    kept?.cancellables.removeAll()
                    return leaks.count
                }
            }
            var counts: [Int] = []
            for await count in group { counts.append(count) }
            return counts.sorted()
        }
        #expect(counts == [0, 0, 0, 2, 2, 2])
    }
}
