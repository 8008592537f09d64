import Ripple
import Testing

@Suite struct SetFailureTypeTests {
    @Test func changesTheFailureTypeOnly() {
        let publisher: Publishers.SetFailureType<Just<Int>, TestError> = Just(1).setFailureType(to: TestError.self)
        #expect(Recorder(for: publisher).events == [.subscription, .value(1), .finished])
        let again: Publishers.SetFailureType<Just<Int>, CancellationError> = publisher.setFailureType(to: CancellationError.self)
        #expect(again.upstream == Just(1))
    }
}
