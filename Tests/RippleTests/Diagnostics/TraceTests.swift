import Foundation
import Ripple
import Testing

@Suite struct TraceTests {
    @Test func recordsAKnownSequence() {
        let timeline = RippleDiagnostics.Timeline()
        let subject = PassthroughSubject<Int, Never>()
        let token = subject.trace("numbers", to: timeline).sink { _ in }
        subject.send(1)
        subject.send(2)
        token.cancel()
        #expect(timeline.events.map(\.kind) == [
            .subscribe, .request(.unlimited, synchronous: false), .value("1"), .value("2"), .cancel,
        ])
        #expect(Set(timeline.events.map(\.subscription)) == [1])
        #expect("\(timeline.events.map(\.kind))" == "[subscribe, request unlimited, value 1, value 2, cancel]")
        #expect(timeline.events.allSatisfy { $0.name == "numbers" })
    }

    @Test func recordsDemandAndCompletion() {
        let timeline = RippleDiagnostics.Timeline()
        let publisher = [1, 2, 3].publisher.trace("seq", to: timeline)
        let subscriber = AnySubscriber<Int, Never>(
            receiveSubscription: { $0.request(.max(1)) }, receiveValue: { _ in .max(1) }, receiveCompletion: { _ in })
        publisher.subscribe(subscriber)
        #expect(timeline.events.map(\.kind.description) == [
            "subscribe", "request 1", "value 1", "request 1 (synchronous)", "value 2", "request 1 (synchronous)",
            "value 3", "request 1 (synchronous)", "finished",
        ])
        let failing = RippleDiagnostics.Timeline()
        _ = Fail<Int, TestError>(error: TestError(id: 7)).trace("fail", to: failing).sink(
            receiveCompletion: { _ in }, receiveValue: { _ in })
        #expect(failing.events.map(\.kind.description) == ["subscribe", "request unlimited", "failure: TestError(7)"])
    }

    /// The exported JSON is the trace-event format: every event has name, ph, ts, pid and tid;
    /// each subscription is its own track, opened by B and closed by E, with times that never go
    /// back on a track.
    @Test func chromeTraceJSONIsTheTraceEventFormat() throws {
        let timeline = RippleDiagnostics.Timeline()
        let subject = PassthroughSubject<String, Never>()
        let first = subject.trace("first", to: timeline).sink { _ in }
        let second = subject.map { $0 + "!" }.trace("second", to: timeline).sink { _ in }
        subject.send("a \"quoted\"\nvalue")
        first.cancel()
        subject.send("b")
        subject.send(completion: .finished)
        _ = second
        let json = timeline.chromeTraceJSON()
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let events = try #require(root["traceEvents"] as? [[String: Any]])
        var lastTime: [Int: Double] = [:]
        var open: [Int: Int] = [:]
        var tracks = Set<Int>()
        var values: [Int: [String]] = [:]
        for event in events {
            let ph = try #require(event["ph"] as? String)
            #expect(["B", "E", "i", "M"].contains(ph))
            #expect(event["name"] is String)
            let ts = try #require((event["ts"] as? NSNumber)?.doubleValue)
            #expect((event["pid"] as? Int) == 1)
            let tid = try #require(event["tid"] as? Int)
            guard ph != "M" else { continue }
            tracks.insert(tid)
            #expect(ts >= lastTime[tid, default: 0], "time goes back on track \(tid)")
            lastTime[tid] = ts
            if ph == "B" { open[tid, default: 0] += 1 }
            if ph == "E" { open[tid, default: 0] -= 1 }
            if ph == "i" { #expect((event["s"] as? String) == "t") }
            if ph == "i", let name = event["name"] as? String, name.hasPrefix("value ") {
                values[tid, default: []].append(String(name.dropFirst(6)))
            }
        }
        #expect(tracks == [1, 2])
        #expect(open == [1: 0, 2: 0])
        #expect(values[1] == ["a \"quoted\"\nvalue"])
        #expect(values[2] == ["a \"quoted\"\nvalue!", "b!"])
        let names = events.filter { ($0["name"] as? String) == "thread_name" }
            .compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
        #expect(names == ["first #1", "second #2"])
    }

    @Test func recordsTheThreadOfEachEvent() {
        let timeline = RippleDiagnostics.Timeline()
        let subject = PassthroughSubject<Int, Never>()
        let token = subject.trace("threads", to: timeline).sink { _ in }
        let here = timeline.events[0].thread  // subscribed on this thread
        let sent = DispatchSemaphore(value: 0)
        let other = Thread {
            subject.send(1)
            sent.signal()
        }
        other.start()
        sent.wait()
        subject.send(2)
        token.cancel()
        let values = timeline.events.filter { if case .value = $0.kind { true } else { false } }
        #expect(values.map(\.kind) == [.value("1"), .value("2")])
        #expect(values[0].thread != here)
        #expect(values[1].thread == here)
        #expect(timeline.events.last?.thread == here)
        #expect(timeline.events.map(\.time) == timeline.events.map(\.time).sorted())
    }
}
