import Foundation
import Ripple
import Testing

/// The subscriptions of Just, Optional, Result, Sequence, Record, Future, Empty/Fail and the
/// sequential operators describe and reflect themselves with Combine's names.
@Suite struct SubscriptionDescriptionTests {
    /// The subscription a publisher hands its subscriber, before any demand.
    func subscription<P: Publisher>(of publisher: P) -> any Subscription {
        let recorder = Recorder<P.Output, P.Failure>(demand: nil)
        publisher.subscribe(recorder)
        return recorder.subscription!
    }

    func text(_ subscription: any Subscription) -> (description: String, playground: String?, children: [String]) {
        let mirror = Mirror(reflecting: subscription)
        let children = mirror.children.map { "\($0.label ?? "_")=\($0.value)" }
        let playground = (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
        return (String(describing: subscription), playground, children)
    }

    @Test func singleValueSubscriptions() {
        let just = text(subscription(of: Just(7)))
        #expect(just.description == "Just")
        #expect(just.playground == "Just")
        #expect(just.children == ["_=7"])
        #expect(text(subscription(of: Optional(8).publisher)).description == "Optional")
        let once = text(subscription(of: Result<Int, TestError>.Publisher(9)))
        #expect(once.description == "Once")
        #expect(once.children == ["_=9"])
        // Just(v).setFailureType(to:) is a Result.Publisher: Combine's "Once".
        #expect(text(subscription(of: Just(10).setFailureType(to: TestError.self))).description == "Once")
    }

    @Test func sequenceAndRecordSubscriptions() {
        let sequence = subscription(of: [1, 2].publisher)
        #expect(text(sequence).description == "[1, 2]")
        #expect(text(sequence).playground == "[1, 2]")
        #expect(text(sequence).children == ["sequence=[1, 2]"])
        // Described as the sequence, with another failure type too (not as its type name).
        #expect(text(subscription(of: [4].publisher.setFailureType(to: TestError.self))).description == "[4]")
        sequence.cancel()
        #expect(text(sequence).description == "Sequence")
        #expect(text(sequence).children == ["sequence=[]"])

        let record = subscription(of: Record<Int, Never>(output: [3], completion: .finished))
        #expect(text(record).description == "[3]")
        #expect(text(record).children == ["sequence=[3]", "completion=finished"])
        record.cancel()
        #expect(text(record).description == "Cancelled Events")
    }

    @Test func emptyFutureAndSequentialSubscriptions() {
        let empty = text(subscription(of: Empty<Int, Never>(completeImmediately: false)))
        #expect(empty.description == "Empty")
        #expect(empty.playground == "Empty")
        #expect(empty.children.isEmpty)
        #expect(text(subscription(of: Fail<Int, TestError>(error: TestError()))).description == "Empty")
        let future = text(subscription(of: Future<Int, Never> { _ in }))
        #expect(future.description == "Future")
        #expect(future.playground == "Future")
        #expect(future.children.map { $0.prefix { $0 != "=" } } == ["parent", "downstream", "hasAnyDemand", "subject"])
        let subject = PassthroughSubject<Int, TestError>()
        #expect(text(subscription(of: subject.append(subject))).description == "Concatenate")
        #expect(text(subscription(of: subject.catch { _ in subject })).description == "Catch")
        #expect(text(subscription(of: subject.tryCatch { _ in subject })).description == "TryCatch")
        #expect(text(subscription(of: subject.retry(1))).playground == "Retry")
    }

    @Test func recordIsSpelledAsCombines() throws {
        var recording = Record<Int, TestCodableError>.Recording()
        let input: Record<Int, TestCodableError>.Recording.Input = 1
        recording.receive(input)
        recording.receive(completion: .failure(TestCodableError(code: 4)))
        let record = Record(recording: recording)
        #expect(record.recording.output == [1])
        #expect(record.recording.completion == .failure(TestCodableError(code: 4)))

        // Codable as Combine's synthesized form: the recording under "recording".
        let data = try JSONEncoder().encode(record)
        let json = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let inner = try #require(json["recording"] as? [String: Any])
        #expect(inner["output"] as? [Int] == [1])
        let completion = try #require(inner["completion"] as? [String: Any])
        #expect(completion["success"] as? Bool == false)
        let decoded = try JSONDecoder().decode(Record<Int, TestCodableError>.self, from: data)
        #expect(Recorder(for: decoded).events == [.subscription, .value(1), .failure("TestCodableError(code: 4)")])

        // `encode(into:)` is Combine's spelling of the recording's `encode(to:)`.
        struct Wrapper: Encodable {
            let recording: Record<Int, TestCodableError>.Recording
            func encode(to encoder: any Encoder) throws { try recording.encode(into: encoder) }
        }
        let flat = try JSONSerialization.jsonObject(with: JSONEncoder().encode(Wrapper(recording: recording))) as? [String: Any]
        #expect(flat?["output"] as? [Int] == [1])
    }

    struct TestCodableError: Error, Codable, Equatable {
        var code: Int
    }
}
