import Foundation
import Ripple
import Testing

@Suite struct CompletionTests {
    struct CodableError: Error, Codable, Equatable { var code: Int }

    // Rule 3
    @Test func encodesSuccessFlagAndError() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let finished = Subscribers.Completion<CodableError>.finished
        let failure = Subscribers.Completion<CodableError>.failure(CodableError(code: 7))
        #expect(String(decoding: try encoder.encode(finished), as: UTF8.self) == #"{"success":true}"#)
        #expect(String(decoding: try encoder.encode(failure), as: UTF8.self) == #"{"error":{"code":7},"success":false}"#)
        let decoder = JSONDecoder()
        #expect(try decoder.decode(Subscribers.Completion<CodableError>.self, from: Data(#"{"success":true}"#.utf8)) == finished)
        #expect(
            try decoder.decode(
                Subscribers.Completion<CodableError>.self, from: Data(#"{"success":false,"error":{"code":7}}"#.utf8))
                == failure)
        #expect(throws: DecodingError.self) {
            try decoder.decode(Subscribers.Completion<CodableError>.self, from: Data(#"{"success":false}"#.utf8))
        }
    }

    @Test func equatableAndHashableWhenFailureIs() {
        let set: Set<Subscribers.Completion<TestErrorHashable>> = [.finished, .failure(.init(id: 1)), .finished]
        #expect(set.count == 2)
        #expect(Subscribers.Completion<TestError>.failure(TestError(id: 1)) != .failure(TestError(id: 2)))
    }

    struct TestErrorHashable: Error, Hashable { var id: Int }
}
