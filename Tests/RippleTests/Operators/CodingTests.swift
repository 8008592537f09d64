import Ripple
import Testing

/// A toy top-level coder: encodes any Encodable by its description-free round trip through an
/// integer box (enough to prove the operators call the coder and handle its errors).
struct IntBoxEncoder: TopLevelEncoder {
    func encode<T: Encodable>(_ value: T) throws -> Int {
        guard let int = value as? Int else { throw TestError(id: -1) }
        return int * 100
    }
}

struct IntBoxDecoder: TopLevelDecoder {
    func decode<T: Decodable>(_ type: T.Type, from input: Int) throws -> T {
        guard input >= 0, let value = (input / 100) as? T else { throw TestError(id: input) }
        return value
    }
}

@Suite struct EncodeTests {
    @Test func encodesEachValue() {
        #expect(Recorder(for: [1, 2].publisher.encode(encoder: IntBoxEncoder())).values == [100, 200])
    }

    @Test func encodingErrorCancelsUpstreamAndFails() {
        let upstream = ManualPublisher<String, Never>()
        let recorder = Recorder(for: upstream.encode(encoder: IntBoxEncoder()))
        upstream.send("x")
        #expect(upstream.subscription.cancelled)
        #expect(recorder.events == [.subscription, .failure("TestError(-1)")])
    }
}

@Suite struct DecodeTests {
    @Test func decodesEachValue() {
        #expect(Recorder(for: [100, 300].publisher.decode(type: Int.self, decoder: IntBoxDecoder())).values == [1, 3])
    }

    @Test func decodingErrorCancelsUpstreamAndFails() {
        let upstream = ManualPublisher<Int, Never>()
        let recorder = Recorder(for: upstream.decode(type: Int.self, decoder: IntBoxDecoder()))
        upstream.send(-5)
        #expect(upstream.subscription.cancelled)
        #expect(recorder.events == [.subscription, .failure("TestError(-5)")])
    }
}
