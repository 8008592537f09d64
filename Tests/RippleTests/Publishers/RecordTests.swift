import Foundation
import Ripple
import Testing

@Suite(.exitTestWatchdog) struct RecordTests {
    @Test func playsBackOutputThenCompletion() {
        let record = Record<Int, TestError> { recording in
            recording.receive(1)
            recording.receive(2)
            recording.receive(completion: .failure(TestError(id: 1)))
        }
        #expect(Recorder(for: record).events == [.subscription, .value(1), .value(2), .failure("TestError(1)")])
        #expect(record.recording.output == [1, 2])
    }

    @Test func respectsDemand() {
        let record = Record<Int, Never>(output: [1, 2, 3], completion: .finished)
        let recorder = Recorder(for: record, demand: .max(2))
        #expect(recorder.values == [1, 2])
        #expect(!recorder.isCompleted)
    }

    @Test func emptyRecordingCompletesAtOnce() {
        let record = Record<Int, Never>(output: [], completion: .finished)
        #expect(Recorder(for: record, demand: nil).events == [.subscription, .finished])
    }

    @Test func codableRoundTrip() throws {
        let record = Record<Int, Never>(output: [4, 5], completion: .finished)
        let data = try JSONEncoder().encode(record)
        let decoded = try JSONDecoder().decode(Record<Int, Never>.self, from: data)
        #expect(Recorder(for: decoded).events == [.subscription, .value(4), .value(5), .finished])
    }

    @Test func receivingAfterCompletionTraps() async {
        await #expect(processExitsWith: .failure) {
            var recording = Record<Int, Never>.Recording()
            recording.receive(completion: .finished)
            recording.receive(1)
        }
    }
}
