import Foundation
import Ripple
import Testing

extension Heavy {
    /// Serialization is per subscriber: each subscriber's calls never overlap, and it sees each
    /// sender's values in that sender's order; two subscribers may see two concurrent senders
    /// interleaved differently.
    @Suite struct PerSubscriberOrderTests {
        final class Checked: @unchecked Sendable {
            let inside = Locked(false)
            let overlaps = Locked(0)
            let values = Locked<[Int]>([])
            let completions = Locked(0)
            let valuesAfterCompletion = Locked(0)

            func enter() {
                if inside.withLock({ flag in defer { flag = true }; return flag }) { overlaps.withLock { $0 += 1 } }
            }

            func leave() { inside.withLock { $0 = false } }

            func receive(_ value: Int) {
                enter()
                if completions.current > 0 { valuesAfterCompletion.withLock { $0 += 1 } }
                values.withLock { $0.append(value) }
                leave()
            }

            func receive(completion: Subscribers.Completion<Never>) {
                enter()
                completions.withLock { $0 += 1 }
                leave()
            }
        }

        /// Several sinks, two sending threads, unlimited demand, then a completion after both
        /// finish: per sink, no overlap, each sender's values in its order, nothing lost or
        /// duplicated, one completion after every value.
        @Test(arguments: [false, true]) func severalSinksAndTwoSendersEachSinkSeesEachSendersOrder(currentValue: Bool) {
            let perSender = raceIterations(5_000)
            let passthrough = PassthroughSubject<Int, Never>()
            let current = CurrentValueSubject<Int, Never>(-1)
            let sinks = (0..<4).map { _ in Checked() }
            let tokens = sinks.map { checked in
                currentValue
                    ? current.sink(receiveCompletion: { checked.receive(completion: $0) }, receiveValue: { checked.receive($0) })
                    : passthrough.sink(receiveCompletion: { checked.receive(completion: $0) }, receiveValue: { checked.receive($0) })
            }
            runConcurrently(threads: 2) { sender in
                for index in 0..<perSender {
                    let value = sender * 1_000_000 + index
                    if currentValue { current.send(value) } else { passthrough.send(value) }
                }
            }
            if currentValue { current.send(completion: .finished) } else { passthrough.send(completion: .finished) }
            for checked in sinks {
                var values = checked.values.current
                if currentValue {
                    #expect(values.first == -1)  // the value current when it subscribed
                    values.removeFirst()
                }
                #expect(checked.overlaps.current == 0)
                #expect(checked.completions.current == 1)
                #expect(checked.valuesAfterCompletion.current == 0)
                for sender in 0..<2 {
                    let fromSender = values.filter { $0 / 1_000_000 == sender }.map { $0 % 1_000_000 }
                    #expect(fromSender == Array(0..<perSender), "sender \(sender): lost, duplicated or out of order")
                }
                #expect(values.count == 2 * perSender)
            }
            // `value` is the last value stored: the last of one of the two senders.
            if currentValue { #expect([perSender - 1, 1_000_000 + perSender - 1].contains(current.value)) }
            withExtendedLifetime(tokens) {}
        }
    }
}
