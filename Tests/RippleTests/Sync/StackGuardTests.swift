import Ripple
import Testing

/// Where recursion cannot be flattened — a publisher that nests a fresh copy of itself in every
/// catch handler, without end — Ripple stops with a message instead of a bare stack overflow.
@Suite(.exitTestWatchdog) struct StackGuardTests {
    /// A catch whose handler returns another such catch: each level subscribes inside the last.
    static func endlessCatch() -> AnyPublisher<Int, TestError> {
        Fail<Int, TestError>(error: TestError(id: 0)).catch { _ in endlessCatch() }.eraseToAnyPublisher()
    }

    /// A Deferred that defers to itself, one level deeper on every subscription.
    static func endlessDeferred() -> AnyPublisher<Int, Never> {
        Deferred { endlessDeferred() }.eraseToAnyPublisher()
    }

    @Test func endlessNestedCatchTrapsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = StackGuardTests.endlessCatch().sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("Ripple: the stack is nearly exhausted"), "stderr was \(output.suffix(300))")
        #expect(output.contains("in Catch"), "stderr was \(output.suffix(300))")
    }

    @Test func endlessDeferredTrapsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = StackGuardTests.endlessDeferred().sink { _ in }
        }
        let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(output.contains("Ripple: the stack is nearly exhausted"), "stderr was \(output.suffix(300))")
        #expect(output.contains("in Deferred"), "stderr was \(output.suffix(300))")
    }

    /// Deep but finite nesting well inside the stack still works.
    @Test func deepFiniteNestingStillWorks() {
        func nested(_ depth: Int) -> AnyPublisher<Int, TestError> {
            depth == 0
                ? Just(depth).setFailureType(to: TestError.self).eraseToAnyPublisher()
                : Fail<Int, TestError>(error: TestError(id: depth)).catch { _ in nested(depth - 1) }.eraseToAnyPublisher()
        }
        let recorder = Recorder(for: nested(200))
        #expect(recorder.events == [.subscription, .value(0), .finished])
    }
}
