import Foundation
import Ripple
import Testing

/// Rule 41: re-running observers coalesce bursts, run where they are told, read the new values, and
/// stop at once when cancelled.
@Suite struct ObserveTests {
    final class Basket: ObservableObject, @unchecked Sendable {
        @Published var apples = 0
        @Published var peaches = 0
        @Published var showPeaches = false
    }

    /// An executor the test drains by hand.
    final class ManualExecutor: @unchecked Sendable {
        let jobs = Locked<[@Sendable () -> Void]>([])
        var executor: ObserveExecutor {
            .custom { job in self.jobs.withLock { $0.append(job) } }
        }
        func drain() {
            while let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { job() }
        }
        var pending: Int { jobs.current.count }
    }

    @Test func runsNowAndAgainWithTheNewValue() {
        let basket = Basket()
        let seen = Locked<[Int]>([])
        let token = observe { seen.withLock { $0.append(basket.apples) } }
        basket.apples = 1
        basket.apples = 2
        #expect(seen.current == [0, 1, 2])
        token.cancel()
    }

    @Test func changeToAPropertyNotReadDoesNotReRun() {
        let basket = Basket()
        let runs = Locked(0)
        let token = observe {
            _ = basket.apples
            runs.withLock { $0 += 1 }
        }
        basket.peaches = 1
        #expect(runs.current == 1)
        basket.apples = 1
        #expect(runs.current == 2)
        token.cancel()
    }

    @Test func dependenciesFollowTheLatestRun() {
        let basket = Basket()
        let seen = Locked<[String]>([])
        let token = observe {
            let text = basket.showPeaches ? "peaches \(basket.peaches)" : "apples \(basket.apples)"
            seen.withLock { $0.append(text) }
        }
        basket.peaches = 5  // not read yet: nothing
        basket.showPeaches = true
        basket.apples = 9  // no longer read: nothing
        basket.peaches = 6
        #expect(seen.current == ["apples 0", "peaches 5", "peaches 6"])
        token.cancel()
    }

    @Test func burstsCoalesceIntoOneRunOnTheChosenExecutor() {
        let basket = Basket()
        let manual = ManualExecutor()
        let seen = Locked<[Int]>([])
        let token = observe(on: manual.executor) { seen.withLock { $0.append(basket.apples) } }
        #expect(seen.current == [0])  // the first run is immediate
        basket.apples = 1
        basket.apples = 2
        basket.apples = 3
        #expect(manual.pending == 1)
        #expect(seen.current == [0])
        manual.drain()
        #expect(seen.current == [0, 3])  // one re-run, reading the newest value
        token.cancel()
    }

    @Test func cancelStopsAtOnceEvenWithARunPending() {
        let basket = Basket()
        let manual = ManualExecutor()
        let runs = Locked(0)
        let token = observe(on: manual.executor) {
            _ = basket.apples
            runs.withLock { $0 += 1 }
        }
        basket.apples = 1
        token.cancel()
        manual.drain()
        basket.apples = 2
        manual.drain()
        #expect(runs.current == 1)
    }

    @Test func releasingTheTokenCancels() {
        let basket = Basket()
        let runs = Locked(0)
        do {
            let token = observe {
                _ = basket.apples
                runs.withLock { $0 += 1 }
            }
            _ = token
        }
        basket.apples = 1
        #expect(runs.current == 1)
    }

    /// Rule 42c: a body that writes what it reads runs once per outside change, never recursively.
    @Test func aBodyThatWritesWhatItReadsRunsOncePerOutsideChange() {
        let basket = Basket()
        let runs = Locked(0)
        let token = observe {
            runs.withLock { $0 += 1 }
            basket.apples += 1
        }
        #expect(runs.current == 1 && basket.apples == 1)
        basket.apples = 10  // an outside change
        #expect(runs.current == 2 && basket.apples == 11)
        basket.peaches = 1  // not read
        #expect(runs.current == 2)
        token.cancel()
    }

    /// Rule 41 / T3: cancelling from inside the body stops it (and does not wait for itself).
    @Test func cancelFromInsideTheBody() {
        let basket = Basket()
        let runs = Locked(0)
        let token = Locked<AnyCancellable?>(nil)
        token.withLock {
            $0 = observe {
                _ = basket.apples
                let run = runs.withLock { $0 += 1; return $0 }
                if run == 2 { token.withLock { $0 }?.cancel() }
            }
        }
        basket.apples = 1
        basket.apples = 2
        #expect(runs.current == 2)
    }

    /// T3: a cancel made while another thread runs the body returns only after that run.
    @Test func cancelWaitsForARunUnderWayOnAnotherThread() {
        let basket = Basket()
        let events = Locked<[String]>([])
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let runs = Locked(0)
        let token = observe {
            _ = basket.apples
            guard runs.withLock({ $0 += 1; return $0 }) == 2 else { return }
            entered.signal()
            release.wait()
            events.withLock { $0.append("run ended") }
        }
        let writer = Thread { basket.apples = 1 }  // runs the body on this thread (immediate)
        writer.start()
        entered.wait()
        let cancelled = DispatchSemaphore(value: 0)
        Thread {
            token.cancel()
            events.withLock { $0.append("cancel returned") }
            cancelled.signal()
        }.start()
        release.signal()
        cancelled.wait()
        #expect(events.current == ["run ended", "cancel returned"])
    }

    @Test func runsOnTheMainActor() async {
        let basket = Basket()
        let reRunsOnMain = Locked(0)
        let token = observe(on: .mainActor) {
            guard basket.apples > 0 else { return }  // the first run happens right here, on the caller
            // Traps (failing the run) unless this re-run is isolated to the main actor.
            MainActor.assumeIsolated { reRunsOnMain.withLock { $0 += 1 } }
        }
        basket.apples = 1
        #expect(await eventually { reRunsOnMain.current > 0 })
        #expect(reRunsOnMain.current == 1)
        token.cancel()
    }

    @Test func runsIsolatedToAnActor() async {
        actor Counter {
            var runs = 0
            func bump() { runs += 1 }
        }
        let basket = Basket()
        let counter = Counter()
        let token = observe(on: .actor(counter)) {
            _ = basket.apples
            Task { await counter.bump() }
        }
        basket.apples = 1
        #expect(await eventually { await counter.runs >= 2 })
        #expect(await counter.runs == 2)
        token.cancel()
    }
}

@Suite struct TrackedPublisherTests {
    final class Basket: ObservableObject, @unchecked Sendable {
        @Published var apples = 0
        @Published var peaches = 0
    }

    @Test func publishesTheValueThenEachNewValue() {
        let basket = Basket()
        let recorder = Recorder(for: TrackedPublisher { basket.apples + basket.peaches })
        basket.apples = 2
        basket.peaches = 3
        #expect(recorder.values == [0, 2, 5])
    }

    @Test func subscribersReadsAreNotTracked() {
        let basket = Basket()
        let values = Locked<[Int]>([])
        let token = TrackedPublisher { basket.apples }.sink { value in
            _ = basket.peaches  // read by the subscriber, not by the expression
            values.withLock { $0.append(value) }
        }
        basket.peaches = 1
        basket.apples = 1
        #expect(values.current == [0, 1])
        token.cancel()
    }

    @Test func cancelStopsTheTracking() {
        let basket = Basket()
        let evaluations = Locked(0)
        let recorder = Recorder(for: TrackedPublisher { () -> Int in
            evaluations.withLock { $0 += 1 }
            return basket.apples
        })
        recorder.cancel()
        basket.apples = 1
        #expect(evaluations.current == 1)
    }

    @Test func zeroDemandKeepsTheLatest() {
        let basket = Basket()
        let recorder = Recorder(for: TrackedPublisher { basket.apples }, demand: .max(1))
        basket.apples = 1
        basket.apples = 2
        recorder.request(.max(1))
        #expect(recorder.values == [0, 2])
    }
}

@Suite struct TrackedValuesTests {
    final class Basket: ObservableObject, @unchecked Sendable {
        @Published var apples = 0
    }

    @Test func iteratesTheCurrentValueThenChanges() async {
        let basket = Basket()
        var iterator = TrackedValues { basket.apples }.makeAsyncIterator()
        #expect(await iterator.next() == 0)
        basket.apples = 1
        #expect(await iterator.next() == 1)
        basket.apples = 2
        basket.apples = 3
        #expect(await iterator.next() == 3)  // newest only
    }
}

/// The README's "Push and pull on the same model" example, as written there.
@Suite struct ReadmePushPullExampleTests {
    final class Basket: ObservableObject, @unchecked Sendable {
        @Published var apples = 0
        @Published var peaches = 0
    }

    @Test func printsWhatTheReadmeSays() {
        let basket = Basket()
        let printed = Locked<[String]>([])
        let push = basket.objectWillChange.sink { printed.withLock { $0.append("push: something will change") } }
        let pull = observe { let apples = basket.apples; printed.withLock { $0.append("pull: apples = \(apples)") } }
        basket.peaches += 1
        basket.apples += 1
        #expect(
            printed.current == [
                "pull: apples = 0",
                "push: something will change",
                "push: something will change", "pull: apples = 1",
            ])
        push.cancel()
        pull.cancel()
    }
}
