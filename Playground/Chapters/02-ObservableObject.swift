import Ripple

/// Chapter 2: a counter model, the `@Published` way and the hand-written way.
struct ObservableObjectChapter: Chapter {
    let title = "ObservableObject: @Published and willSet side by side"
    let summary = """
        A counter model, written with @Published and written out by hand with
        `willSet { objectWillChange.send() }`. Both announce a change *before* it happens: a subscriber
        still reads the old value. A class with its own objectWillChange is not fed by @Published.
        """

    final class PublishedCounter: ObservableObject {
        @Published var value = 0
    }

    final class HandWrittenCounter: ObservableObject {
        var value = 0 {
            willSet { objectWillChange.send() }
        }
    }

    final class CustomPublisherCounter: ObservableObject {
        let objectWillChange = PassthroughSubject<Void, Never>()
        @Published var value = 0
    }

    func run() async {
        show("Example 2.1: @Published")
        let published = PublishedCounter()
        let a = published.objectWillChange.sink { show("  objectWillChange: value is still \(published.value)") }
        let b = published.$value.sink { show("  $value emits \($0) (stored: \(published.value))") }
        for _ in 1...2 {
            show("  → value += 1")
            published.value += 1
            show("  after the write: value is \(published.value)")
        }
        a.cancel()
        b.cancel()
        print("")

        show("Example 2.2: the same model without @Published (willSet { objectWillChange.send() })")
        let handWritten = HandWrittenCounter()
        let c = handWritten.objectWillChange.sink { show("  objectWillChange: value is still \(handWritten.value)") }
        for _ in 1...2 {
            show("  → value += 1")
            handWritten.value += 1
            show("  after the write: value is \(handWritten.value)")
        }
        c.cancel()
        show("  Same events, same timing — minus the $value publisher.")
        print("")

        show("Example 2.3: a class that declares its own objectWillChange keeps it to itself")
        let custom = CustomPublisherCounter()
        var customEvents = 0
        let d = custom.objectWillChange.sink { customEvents += 1 }
        custom.value = 1
        show("  after value = 1: its objectWillChange fired \(customEvents) time(s) — @Published does not feed it")
        custom.objectWillChange.send()
        show("  after a manual send(): \(customEvents) time(s)")
        d.cancel()
        print("")

        show("Example 2.4: the synthesized publisher is one instance per object")
        show("  published.objectWillChange === published.objectWillChange → \(published.objectWillChange === published.objectWillChange)")
        show("  handWritten.objectWillChange === handWritten.objectWillChange → \(handWritten.objectWillChange === handWritten.objectWillChange)")
    }
}
