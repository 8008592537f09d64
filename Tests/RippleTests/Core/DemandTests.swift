import Foundation
import Ripple
import Testing

@Suite(.exitTestWatchdog) struct DemandTests {
    typealias Demand = Subscribers.Demand

    // Rule 1
    @Test func negativeMaxTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Subscribers.Demand.max(-1)
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("demand must not be negative"))
    }

    // Rule 2
    @Test func additionSaturatesToUnlimited() {
        #expect(Demand.max(2) + Demand.max(3) == .max(5))
        #expect(Demand.max(Int.max) + Demand.max(1) == .unlimited)
        #expect(Demand.max(Int.max) + Demand.max(Int.max) == .unlimited)
        #expect(Demand.unlimited + Demand.max(1) == .unlimited)
        #expect(Demand.max(1) + .unlimited == .unlimited)
        #expect(Demand.max(Int.max) + 1 == .unlimited)
        #expect(Demand.max(5) + -2 == .max(3))
        #expect(Demand.max(1) + -5 == .none)
        var demand = Demand.max(1)
        demand += .max(1)
        demand += 3
        #expect(demand == .max(5))
    }

    @Test func subtractionClampsAtZeroAndUnlimitedAbsorbs() {
        #expect(Demand.max(5) - .max(2) == .max(3))
        #expect(Demand.max(2) - .max(5) == .none)
        #expect(Demand.unlimited - .max(1_000) == .unlimited)
        #expect(Demand.unlimited - .unlimited == .unlimited)
        #expect(Demand.max(7) - .unlimited == .max(0))
        #expect(Demand.max(3) - 5 == .none)
        #expect(Demand.max(3) - -2 == .max(5))
        #expect(Demand.unlimited - 1 == .unlimited)
        var demand = Demand.max(3)
        demand -= 1
        demand -= .max(1)
        #expect(demand == .max(1))
    }

    // Combine's, recorded in OpenCombine's SubscribersDemandTests.testSubtraction: subtracting a
    // negative integer that overflows gives `.none`, not `.unlimited`.
    @Test func subtractingANegativeIntegerThatOverflowsGivesNone() {
        #expect(Demand.max(Int.max) - (-1) == .none)
        var demand = Demand.max(Int.max)
        demand -= -1
        #expect(demand == .none)
        #expect(Demand.max(Int.max - 1) - (-1) == .max(Int.max))
        #expect(Demand.unlimited - (-1) == .unlimited)
    }

    @Test func multiplicationSaturatesAndNeverGoesNegative() {
        #expect(Demand.max(3) * 4 == .max(12))
        #expect(Demand.max(Int.max / 2 + 1) * 2 == .unlimited)
        #expect(Demand.max(Int.max) * Int.max == .unlimited)
        #expect(Demand.unlimited * 0 == .unlimited)
        #expect(Demand.max(3) * 0 == .none)
        #expect(Demand.max(3) * -1 == .none)
        var demand = Demand.max(2)
        demand *= 3
        #expect(demand == .max(6))
    }

    @Test func maxIsNilOnlyForUnlimited() {
        #expect(Demand.unlimited.max == nil)
        #expect(Demand.max(4).max == 4)
        #expect(Demand.none.max == 0)
        #expect(Demand.none == .max(0))
    }

    @Test func comparesWithIntBothWays() {
        #expect(Demand.max(3) == 3)
        #expect(3 == Demand.max(3))
        #expect(Demand.max(3) != 4)
        #expect(Demand.unlimited != Int.max)
        #expect(Demand.unlimited > Int.max)
        #expect(Int.max < Demand.unlimited)
        #expect(Demand.max(2) < 3 && Demand.max(2) <= 2 && Demand.max(2) >= 2 && Demand.max(2) > 1)
        #expect(1 < Demand.max(2) && 2 <= Demand.max(2) && 3 > Demand.max(2) && 2 >= Demand.max(2))
        #expect(Demand.none > -1)
        #expect(!(Demand.none == -1))
        #expect(Demand.max(1) < Demand.unlimited)
        #expect(Demand.max(1) < Demand.max(2))
    }

    @Test func describesItself() {
        #expect(Demand.unlimited.description == "unlimited")
        #expect(Demand.max(3).description == "max(3)")
    }

    // Rule 3
    @Test func codableAsSingleUnsignedInteger() throws {
        let encoder = JSONEncoder()
        #expect(String(decoding: try encoder.encode(Demand.max(42)), as: UTF8.self) == "42")
        #expect(String(decoding: try encoder.encode(Demand.unlimited), as: UTF8.self) == "9223372036854775808")
        let decoder = JSONDecoder()
        #expect(try decoder.decode(Demand.self, from: Data("7".utf8)) == .max(7))
        #expect(try decoder.decode(Demand.self, from: Data("9223372036854775808".utf8)) == .unlimited)
        #expect(try decoder.decode(Demand.self, from: Data("18446744073709551615".utf8)) == .unlimited)
        #expect(throws: DecodingError.self) { try decoder.decode(Demand.self, from: Data("-1".utf8)) }
        let roundTrip = try decoder.decode([Demand].self, from: try encoder.encode([Demand.none, .max(9), .unlimited]))
        #expect(roundTrip == [.none, .max(9), .unlimited])
    }

    // Rule 4: demand accumulates from `request` and from non-zero returns of `receive`.
    @Test func demandAccumulatesFromRequestsAndReturns() {
        let subject = PassthroughSubject<Int, Never>()
        let recorder = Recorder<Int, Never>(demand: .max(1)) { $0 == 1 ? .max(1) : .none }
        subject.subscribe(recorder)
        recorder.request(.max(1))
        for value in 1...5 { subject.send(value) }
        // 1 (request) + 1 (request) + 1 (returned when receiving 1) = 3 values.
        #expect(recorder.values == [1, 2, 3])
    }
}
