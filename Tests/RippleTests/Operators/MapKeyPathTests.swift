import Ripple
import Testing

@Suite struct MapKeyPathTests {
    struct Point: Equatable {
        var x: Int
        var y: Int
        var name: String
    }

    @Test func oneTwoAndThreeKeyPaths() {
        let points = [Point(x: 1, y: 2, name: "a")].publisher
        #expect(Recorder(for: points.map(\.x)).values == [1])
        let two = Recorder(for: points.map(\.x, \.y)).values
        #expect(two.count == 1 && two[0] == (1, 2))
        let three = Recorder(for: points.map(\.x, \.y, \.name)).values
        #expect(three.count == 1 && three[0] == (1, 2, "a"))
    }

    @Test func completionAndDemandPassThrough() {
        let upstream = ManualPublisher<Point, TestError>()
        let recorder = Recorder(for: upstream.map(\.name), demand: .max(1))
        #expect(upstream.subscription.requests == [.max(1)])
        upstream.send(completion: .failure(TestError(id: 1)))
        #expect(recorder.events == [.subscription, .failure("TestError(1)")])
    }
}
