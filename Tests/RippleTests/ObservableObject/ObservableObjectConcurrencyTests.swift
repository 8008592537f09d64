import Foundation
import Ripple
import Testing

extension Heavy {
    @Suite struct ObservableObjectConcurrencyTests {
        final class Model: ObservableObject, @unchecked Sendable {
            @Published var a = 0
            @Published var b = 0
            @Published var c = 0
        }

        final class Bare: ObservableObject, @unchecked Sendable {}


        @Test func racedFirstAccessYieldsOnePublisher() {
            for _ in 0..<200 {
                let model = Model()
                let seen = Locked<[ObjectIdentifier]>([])
                runConcurrently(threads: 4) { _ in
                    let publisher = model.objectWillChange
                    seen.withLock { $0.append(ObjectIdentifier(publisher)) }
                }
                #expect(Set(seen.current).count == 1)
                #expect(ObjectIdentifier(model.objectWillChange) == seen.current[0])
            }
        }

        @Test func racedFirstAccessWithoutPublishedYieldsOnePublisher() {
            for _ in 0..<200 {
                let model = Bare()
                let seen = Locked<Set<ObjectIdentifier>>([])
                runConcurrently(threads: 4) { _ in
                    let publisher = model.objectWillChange
                    _ = seen.withLock { $0.insert(ObjectIdentifier(publisher)) }
                }
                #expect(seen.current.count == 1)
            }
        }

        @Test func racedFirstAccessLinksEveryPropertyBeforeReturning() {
            for _ in 0..<200 {
                let model = Model()
                let events = Locked(0)
                let tokens = Locked<[AnyCancellable]>([])
                runConcurrently(threads: 3) { index in
                    let token = model.objectWillChange.sink { events.withLock { $0 += 1 } }
                    tokens.withLock { $0.append(token) }
                    switch index {
                    case 0: model.a = 1
                    case 1: model.b = 1
                    default: model.c = 1
                    }
                }
                // Each write happened after its thread subscribed: it reached at least that subscriber.
                #expect(events.current >= 3)
                tokens.withLock { $0.removeAll() }
            }
        }

        @Test func concurrentWritesDeliverOneWillChangePerWrite() {
            let model = Model()
            let events = Locked(0)
            let token = model.objectWillChange.sink { events.withLock { $0 += 1 } }
            let writers = 4
            let perWriter = 5_000
            runConcurrently(threads: writers) { writer in
                for value in 1...perWriter {
                    if writer.isMultiple(of: 2) { model.a = value } else { model.b = value }
                }
            }
            #expect(events.current == writers * perWriter)
            #expect(model.a == perWriter && model.b == perWriter)
            token.cancel()
        }

        @Test func concurrentReadsAndWritesAreSafe() {
            let model = Model()
            runConcurrently(threads: 4) { index in
                for value in 0..<5_000 {
                    if index < 2 { model.c = value } else { _ = model.c }
                }
            }
            #expect(model.c == 4_999)
        }
    }
}
