import Ripple
import Testing

/// A text stream the test can read back (a class, so the operator's copy writes into it).
final class TextLog: TextOutputStream, @unchecked Sendable {
    private let text = Locked("")
    var lines: [String] { text.current.split(separator: "\n").map(String.init) }
    func write(_ string: String) { text.withLock { $0 += string } }
}

@Suite struct PrintTests {
    @Test func logsEveryEventInCombinesWording() {
        let log = TextLog()
        let subject = PassthroughSubject<Int, TestError>()
        let recorder = Recorder<Int, TestError>(demand: .max(1), onValue: { _ in .max(1) })
        subject.print("p", to: log).subscribe(recorder)
        subject.send(1)
        subject.send(completion: .failure(TestError(id: 2)))
        #expect(log.lines == [
            "p: receive subscription: (PassthroughSubject)",
            "p: request max: (1)",
            "p: receive value: (1)",
            "p: request max: (1) (synchronous)",
            "p: receive error: (TestError(2))",
        ])
        #expect(recorder.events == [.subscription, .value(1), .failure("TestError(2)")])
    }

    @Test func unlimitedFinishedAndCancelWithoutPrefix() {
        let log = TextLog()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder(for: subject.print(to: log))
        recorder.cancel()
        #expect(log.lines == ["receive subscription: (PassthroughSubject)", "request unlimited", "receive cancel"])
        let finished = TextLog()
        _ = Recorder(for: Empty<Int, Never>().print("e", to: finished))
        #expect(finished.lines.last == "e: receive finished")
    }
}
