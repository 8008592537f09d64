import Foundation
import Ripple
import Testing

/// Rule 32: the synthesized `objectWillChange` is the same instance on every access, for every
/// shape of class, and a manual `send()` reaches subscribers.
@Suite struct ObjectWillChangeTests {
    final class FinalModel: ObservableObject {
        @Published var value = 0
    }

    class OpenModel: ObservableObject {
        @Published var value = 0
    }

    final class Generic<T>: ObservableObject {
        var padding: (T, T)?
        @Published var value: T
        init(_ value: T) { self.value = value }
    }

    class Base: ObservableObject {
        var name = "base"
    }

    final class SubclassAddingPublished: Base {
        @Published var added = 0
    }

    class PublishedInSuperclass: ObservableObject {
        @Published var inherited = 0
    }

    final class SubclassWithoutOwnPublished: PublishedInSuperclass {
        var plain = 0
    }

    final class NoPublished: ObservableObject {
        var plain = 0
    }

    func sameInstance<O: ObservableObject>(_ object: O) -> Bool where O.ObjectWillChangePublisher == ObservableObjectPublisher {
        object.objectWillChange === object.objectWillChange
    }

    @Test func sameInstanceForEveryKindOfClass() {
        #expect(sameInstance(FinalModel()))
        #expect(sameInstance(OpenModel()))
        #expect(sameInstance(Generic(1)))
        #expect(sameInstance(Generic((1, "two", 3.0))))
        #expect(sameInstance(Base()))
        #expect(sameInstance(SubclassAddingPublished()))
        #expect(sameInstance(PublishedInSuperclass()))
        #expect(sameInstance(SubclassWithoutOwnPublished()))
        #expect(sameInstance(NoPublished()))
    }

    @Test func differentObjectsHaveDifferentPublishers() {
        let a = FinalModel()
        let b = FinalModel()
        #expect(a.objectWillChange !== b.objectWillChange)
        let c = NoPublished()
        let d = NoPublished()
        #expect(c.objectWillChange !== d.objectWillChange)
    }

    @Test func publishedWritesReachTheSynthesizedPublisherInEveryShape() {
        func count<O: ObservableObject>(_ object: O, change: () -> Void) -> Int
        where O.ObjectWillChangePublisher == ObservableObjectPublisher {
            let events = Locked(0)
            let token = object.objectWillChange.sink { events.withLock { $0 += 1 } }
            change()
            token.cancel()
            return events.current
        }
        let final = FinalModel()
        #expect(count(final) { final.value = 1; final.value = 2 } == 2)
        let generic = Generic("a")
        #expect(count(generic) { generic.value = "b" } == 1)
        let sub = SubclassAddingPublished()
        #expect(count(sub) { sub.added = 1 } == 1)
        let inherited = SubclassWithoutOwnPublished()
        #expect(count(inherited) { inherited.inherited = 1; inherited.plain = 5 } == 1)
    }

    /// As in Combine (OpenCombine's ObservableObjectTests, recorded against it): the subscription
    /// describes itself as "ObservableObjectPublisher".
    @Test func subscriptionDescribesItselfAsObservableObjectPublisher() {
        let publisher = ObservableObjectPublisher()
        let described = Locked("")
        publisher.subscribe(
            AnySubscriber<Void, Never>(
                receiveSubscription: { subscription in described.withLock { $0 = String(describing: subscription) } },
                receiveValue: { .none }, receiveCompletion: nil))
        #expect(described.current == "ObservableObjectPublisher")
    }

    @Test func manualSendReachesSubscribersEvenWithoutPublished() {
        let model = NoPublished()
        let events = Locked(0)
        let token = model.objectWillChange.sink { events.withLock { $0 += 1 } }
        model.objectWillChange.send()
        model.plain = 3  // not @Published: nothing automatic
        model.objectWillChange.send()
        #expect(events.current == 2)
        token.cancel()
    }

    @Test func manualSendOnAModelWithPublishedAlsoWorks() {
        let model = FinalModel()
        let events = Locked(0)
        let token = model.objectWillChange.sink { events.withLock { $0 += 1 } }
        model.objectWillChange.send()
        #expect(events.current == 1)
        token.cancel()
    }

    @Test func writesBeforeTheFirstAccessAreFine() {
        let model = FinalModel()
        model.value = 1  // nobody has asked for objectWillChange yet
        let events = Locked(0)
        let token = model.objectWillChange.sink { events.withLock { $0 += 1 } }
        model.value = 2
        #expect(events.current == 1)
        token.cancel()
    }

    @Test func sideTableDropsEntriesOfDeadObjects() {
        for _ in 0..<1_000 {
            let model = NoPublished()
            _ = model.objectWillChange
        }
        // Entries are swept when the table doubles, so it never holds all 1,000 dead objects.
        #expect(PublisherSideTableProbe.count < 1_000)
    }
}

/// The side table is internal; its size is visible to tests through `@testable`.
@testable import Ripple
@testable import RippleCore
enum PublisherSideTableProbe {
    static var count: Int { PublisherSideTable.count }
}

extension ObjectWillChangeTests {
    // Combine (OpenCombine's ObservableObjectTests.testBasicBehavior, recorded against it): once a
    // subscriber has requested `.max(2)`, every send reaches it — three, then more after a request
    // of `.max(10)`. Before its first request a subscriber gets nothing: that test sends nothing
    // before the request, and OpenCombine, which passes it, waits for the first request too.
    @Test func everySendReachesEverySubscriberThatHasRequestedWhateverItsDemand() {
        let publisher = ObservableObjectPublisher()
        let none = Recorder<Void, Never>(demand: nil)
        let one = Recorder<Void, Never>(demand: .max(1))
        publisher.subscribe(none)
        publisher.subscribe(one)
        publisher.send()
        publisher.send()
        publisher.send()
        #expect(none.events.count == 1)
        #expect(one.events.count == 4)
        none.request(.max(2))
        #expect(none.events.count == 1)
        publisher.send()
        publisher.send()
        publisher.send()
        #expect(none.events.count == 4)
        #expect(one.events.count == 7)
        none.cancel()
        publisher.send()
        #expect(none.events.count == 4)
        #expect(one.events.count == 8)
    }
}
