// Marble diagrams of recordings on virtual time, and the messages that compare them.
import RippleTesting
import Testing

private struct Boom: Error {}

@Suite struct MarbleDiagramTests {
    let frame = VirtualTime.Stride.milliseconds(100)

    @Test func valuesAndFinishingOnTheirFrames() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<String, Never>()
        let recorder = subject.record(on: scheduler)
        scheduler.advance(by: .milliseconds(100))
        subject.send("a")
        scheduler.advance(by: .milliseconds(300))
        subject.send("b")
        scheduler.advance(by: .milliseconds(200))
        subject.send(completion: .finished)
        #expect(recorder.marbles(frame: frame) == "-a--b-|")
    }

    @Test func aFailureIsAHash() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Boom>()
        let recorder = subject.record(on: scheduler)
        scheduler.advance(by: .milliseconds(150))  // mid-frame counts as that frame
        subject.send(7)
        scheduler.advance(by: .milliseconds(100))
        subject.send(completion: .failure(Boom()))
        #expect(recorder.marbles(frame: frame) == "-7#")
    }

    @Test func eventsInOneFrameAreGrouped() {
        let scheduler = TestScheduler()
        let recorder = ["x", "y"].publisher.delay(for: .milliseconds(200), scheduler: scheduler).record(on: scheduler)
        scheduler.advance(by: .seconds(1))
        #expect(recorder.marbles(frame: frame) == "--(xy|)")
    }

    @Test func valuesNamedByATable() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<[String], Never>()
        let recorder = subject.record(on: scheduler)
        subject.send([])
        scheduler.advance(by: .milliseconds(200))
        subject.send(["swift"])
        scheduler.advance(by: .milliseconds(100))
        subject.send(["other"])
        #expect(recorder.marbles(frame: frame, values: ["e": [], "s": ["swift"]]) == "e-s?")
        let comparison = recorder.compare(toMarbles: "e-s", frame: frame, values: ["e": [], "s": ["swift"]])
        #expect(!comparison.matches)
        #expect(comparison.unlabelled == [#"["other"]"#])
    }

    @Test func spacesAndTrailingDashesDoNotCount() {
        #expect(MarbleComparison(expected: "- a -- b ---", actual: "-a--b").matches)
        #expect(!MarbleComparison(expected: "-a--b-|", actual: "-a--b|").matches)  // the finish is timed
        #expect(MarbleComparison(expected: "-a--b-|", actual: "-a--b-|").matches)
    }

    @Test func theMessagePutsBothTimelinesOneAboveTheOther() {
        let comparison = MarbleComparison(expected: "-a--b-|", actual: "-a---b|")
        #expect(
            comparison.description == """
                expected: -a--b-|
                actual:   -a---b|
                              ^ frame 4
                """)
    }

    @Test func aLongSilenceIsDrawnFrameByFrame() {
        let scheduler = TestScheduler()
        let recorder = Just(1).delay(for: .seconds(2), scheduler: scheduler).record(on: scheduler)
        scheduler.advance(by: .seconds(3))
        #expect(recorder.marbles(frame: frame) == String(repeating: "-", count: 20) + "(1|)")
    }

    @Test func onlyWhatWasRecordedBeforeCancelling() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<Int, Never>()
        let recorder = subject.record(on: scheduler)
        subject.send(1)
        recorder.cancel()
        subject.send(2)
        #expect(recorder.marbles(frame: frame) == "1")
        #expect(recorder.values == [1])
    }

    @Test func limitedDemand() {
        let scheduler = TestScheduler()
        let recorder = [1, 2, 3].publisher.record(on: scheduler, demand: .max(1))
        #expect(recorder.values == [1])
        recorder.request(.max(5))
        #expect(recorder.events == [.value(1), .value(2), .value(3), .completion(.finished)])
    }

    @Test func aMismatchIsReportedAsAnIssueWithBothDiagrams() {
        let scheduler = TestScheduler()
        let recorder = ["a"].publisher.delay(for: .milliseconds(100), scheduler: scheduler).record(on: scheduler)
        scheduler.advance(by: .seconds(1))
        withKnownIssue {
            recorder.expectMarbles("--a|", frame: frame)
        } matching: { issue in
            issue.comments.map(\.rawValue) == ["Marble diagrams differ\nexpected: --a|\nactual:   -(a|)\n           ^ frame 1"]
        }
        #expect(recorder.expectMarbles("-(a|)", frame: frame).matches)
    }

    /// The Testing article's marble sample, and the message its comment shows.
    @Test func theArticlesSample() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<String, Never>()
        let recorder = subject.delay(for: .milliseconds(100), scheduler: scheduler).record(on: scheduler)
        subject.send("a")
        scheduler.advance(by: .milliseconds(300))
        subject.send("b")
        subject.send(completion: .finished)
        scheduler.advance(by: .milliseconds(100))
        #expect(recorder.expectMarbles("-a--(b|)", frame: .milliseconds(100)).matches)
        #expect(
            "\(recorder.compare(toMarbles: "-a--b-|", frame: .milliseconds(100)))" == """
                expected: -a--b-|
                actual:   -a--(b|)
                              ^ frame 4
                """)
    }
}
