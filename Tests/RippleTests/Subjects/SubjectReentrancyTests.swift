import Ripple
import Testing

/// What happens when a subscriber calls back into the subject it is being served by.
/// Every case is defined (matching Combine: a nested send is delivered at once, depth-first),
/// and none deadlocks or crashes.
@Suite struct SubjectReentrancyTests {
    @Test func sinkThatSendsToTheSameSubjectGetsTheValueNested() {
        let subject = PassthroughSubject<Int, Never>()
        let log = Locked<[String]>([])
        let first = subject.sink { value in
            log.withLock { $0.append("A got \(value)") }
            if value < 3 { subject.send(value + 1) }
            log.withLock { $0.append("A done \(value)") }
        }
        let second = subject.sink { value in log.withLock { $0.append("B got \(value)") } }
        subject.send(1)
        #expect(
            log.current == [
                "A got 1", "A got 2", "A got 3", "A done 3", "B got 3", "A done 2", "B got 2", "A done 1", "B got 1",
            ])
        first.cancel()
        second.cancel()
    }

    @Test func currentValueSubjectSinkThatAssignsTheValue() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let seen = Locked<[Int]>([])
        let token = subject.sink { value in
            seen.withLock { $0.append(value) }
            if value < 3 { subject.value = value + 1 }
        }
        #expect(seen.current == [0, 1, 2, 3])
        #expect(subject.value == 3)
        token.cancel()
    }

    @Test func sinkThatCancelsItselfGetsNothingMore() {
        let subject = PassthroughSubject<Int, Never>()
        let seen = Locked<[Int]>([])
        let holder = Locked<AnyCancellable?>(nil)
        holder.withLock {
            $0 = subject.sink { value in
                seen.withLock { $0.append(value) }
                holder.withLock { $0 }?.cancel()
                // A nested send after cancelling must not reach this sink.
                subject.send(value + 100)
            }
        }
        let other = Recorder(for: subject)
        subject.send(1)
        subject.send(2)
        #expect(seen.current == [1])
        #expect(other.values == [101, 1, 2])
    }

    @Test func sinkThatSubscribesAnotherSink() {
        let subject = PassthroughSubject<Int, Never>()
        let late = Locked<[Int]>([])
        let tokens = Locked<[AnyCancellable]>([])
        let first = subject.sink { value in
            if value == 1 {
                tokens.withLock { $0.append(subject.sink { v in late.withLock { $0.append(v) } }) }
            }
        }
        subject.send(1)
        subject.send(2)
        // The sink added while `1` was being delivered does not get `1` (it subscribed after the
        // snapshot), and gets every later value.
        #expect(late.current == [2])
        first.cancel()
    }

    @Test func sinkThatCompletesTheSubject() {
        let subject = PassthroughSubject<Int, Never>()
        let first = Recorder<Int, Never>(onValue: { _ in
            subject.send(completion: .finished)
            return .none
        })
        subject.subscribe(first)
        let second = Recorder(for: subject)
        subject.send(1)
        subject.send(2)
        #expect(first.events == [.subscription, .value(1), .finished])
        // The second subscriber was completed before the outer delivery reached it.
        #expect(second.events == [.subscription, .finished])
    }

    @Test func subscriberThatRequestsMoreFromInsideReceive() {
        let subject = CurrentValueSubject<Int, Never>(0)
        let holder = Locked<(any Subscription)?>(nil)
        let recorder = Recorder<Int, Never>(
            demand: .max(1),
            onValue: { value in
                if value == 0 { holder.withLock { $0 }?.request(.max(1)) }
                return .none
            },
            onSubscription: { subscription in holder.withLock { $0 = subscription } })
        subject.subscribe(recorder)
        subject.send(1)
        subject.send(2)
        #expect(recorder.values == [0, 1])
    }

    @Test func subscribeFromInsideReceiveSubscriptionWorks() {
        // Rule 8
        let subject = PassthroughSubject<Int, Never>()
        let inner = Recorder<Int, Never>()
        let outer = Recorder<Int, Never>(onSubscription: { _ in subject.subscribe(inner) })
        subject.subscribe(outer)
        subject.send(5)
        #expect(outer.values == [5])
        #expect(inner.values == [5])
    }
}
