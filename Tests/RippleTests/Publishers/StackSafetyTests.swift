import Ripple
import Testing

/// Synchronous resubscription loops instead of recursing (rule T6): retry, catch and
/// concatenation over publishers that complete inside `subscribe` use constant stack depth.
/// Heavy: each test keeps its runner thread busy for a second or two (ten times that under
/// ThreadSanitizer, where the counts are scaled down tenfold).
extension Heavy {
    @Suite struct StackSafetyTests {
        /// A million in a plain run; a hundred thousand under a sanitizer — deep enough either way to
        /// overflow the stack if each attempt nested in the last.
        static let million = sanitizerScaled(1_000_000)

        /// A custom publisher that fails synchronously inside `subscribe`, counting its subscriptions.
        struct FailingAtOnce: Publisher {
            typealias Output = Int
            typealias Failure = TestError
            let subscriptions: Locked<Int>

            func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {
                let attempt = subscriptions.withLock { count -> Int in
                    count += 1
                    return count
                }
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .failure(TestError(id: attempt)))
            }
        }

        @Test func aMillionRetriesOfFailEndWithTheFailure() {
            let recorder = Recorder(for: Fail<Int, TestError>(error: TestError(id: 7)).retry(Self.million))
            #expect(recorder.events == [.subscription, .failure("TestError(7)")])
        }

        @Test func aMillionRetriesOfASynchronouslyFailingCustomPublisher() {
            let subscriptions = Locked(0)
            let recorder = Recorder(for: FailingAtOnce(subscriptions: subscriptions).retry(Self.million))
            #expect(recorder.events == [.subscription, .failure("TestError(\(Self.million + 1))")])
            #expect(subscriptions.current == Self.million + 1)
        }

        @Test func retryWithAValueBeforeEachSynchronousFailure() {
            let attempts = Locked(0)
            let upstream = Deferred {
                let attempt = attempts.withLock { count -> Int in
                    count += 1
                    return count
                }
                return Publishers.Concatenate(
                    prefix: Publishers.Sequence<[Int], TestError>(sequence: [attempt]),
                    suffix: Fail<Int, TestError>(error: TestError(id: attempt)))
            }
            let recorder = Recorder(for: upstream.retry(100_000))
            let events = recorder.events
            #expect(events.count == 100_003)
            #expect(Array(events.suffix(2)) == [.value(100_001), .failure("TestError(100001)")])
        }

        @Test func catchAndTryCatchInsideAHundredThousandRetries() {
            let caught = Recorder(
                for: FailingAtOnce(subscriptions: Locked(0))
                    .catch { _ in Fail<Int, TestError>(error: TestError(id: -1)) }
                    .retry(100_000))
            #expect(caught.events == [.subscription, .failure("TestError(-1)")])
            let tried = Recorder(
                for: Fail<Int, TestError>(error: TestError(id: 3))
                    .tryCatch { _ in Fail<Int, TestError>(error: TestError(id: 4)) }
                    .retry(100_000))
            #expect(tried.events == [.subscription, .failure("TestError(4)")])
        }

        @Test func limitedDemandIsCarriedAcrossAMillionResubscriptions() {
            let recorder = Recorder(for: Fail<Int, TestError>(error: TestError(id: 1)).retry(Self.million), demand: .max(1))
            #expect(recorder.events == [.subscription, .failure("TestError(1)")])
        }

        @Test func aLongLeftNestedChainOfConcatenationsDoesNotOverflow() {
            // Thirty thousand links (three thousand under the sanitizers, which check memory and
            // races here, not depth: their frames are larger, and a chain that deep is slow there).
            let depth = sanitizerScaled(30_000)
            let (firstThree, all, finished) = onSanitizerSizedStack { () -> ([Int], [Int], Bool) in
                // `chain = chain.append(next)` `depth` times, erased at each step: every level
                // joins the outermost concatenation's run instead of nesting a subscription.
                var chain = Just(0).eraseToAnyPublisher()
                for next in 1..<depth {
                    chain = chain.append(Just(next)).eraseToAnyPublisher()
                }
                let recorder = Recorder(for: chain, demand: .max(3))
                let firstThree = recorder.values
                recorder.subscription?.request(.unlimited)
                return (firstThree, recorder.values, recorder.events.last == .finished)
            }
            #expect(firstThree == [0, 1, 2])
            #expect(all == Array(0..<depth))
            #expect(finished)
        }

        @Test func aLongRightNestedChainOfConcatenationsDoesNotOverflow() {
            let depth = sanitizerScaled(30_000)
            let (all, finished) = onSanitizerSizedStack { () -> ([Int], Bool) in
                var chain = Just(depth - 1).eraseToAnyPublisher()
                for next in (0..<(depth - 1)).reversed() {
                    chain = Just(next).append(chain).eraseToAnyPublisher()
                }
                let recorder = Recorder(for: chain)
                return (recorder.values, recorder.events.last == .finished)
            }
            #expect(all == Array(0..<depth))
            #expect(finished)
        }

        @Test func aConcatenationInsideRetryIsRetriedWhole() {
            let attempts = Locked(0)
            let upstream = Deferred { () -> AnyPublisher<Int, TestError> in
                let attempt = attempts.withLock { count -> Int in
                    count += 1
                    return count
                }
                return Just(attempt * 10).setFailureType(to: TestError.self)
                    .append(attempt < 3 ? Fail(error: TestError(id: attempt)).eraseToAnyPublisher() : Empty().eraseToAnyPublisher())
                    .eraseToAnyPublisher()
            }
            let recorder = Recorder(for: upstream.retry(5))
            #expect(recorder.events == [.subscription, .value(10), .value(20), .value(30), .finished])
        }

        @Test func aFailingPrefixInsideCatchReachesTheHandler() {
            let recorder = Recorder(
                for: Just(1).setFailureType(to: TestError.self).append(Fail(error: TestError(id: 5))).append(Just(9).setFailureType(to: TestError.self))
                    .catch { error in Just(error.id).setFailureType(to: TestError.self) })
            #expect(recorder.events == [.subscription, .value(1), .value(5), .finished])
        }
    }
}
