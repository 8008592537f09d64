@testable import Ripple
@testable import RippleCore
import Testing

/// The layout of `@Published` fields found without the runtime's field reflection (what Apple
/// systems before macOS 10.15.4 / iOS 13.4 use) is the layout found with it.
@Suite struct ObservableLayoutTests {
    final class Plain: ObservableObject {
        @Published var apples = 0
        var unrelated = "x"
        @Published var pears: String = "p"
    }

    class Base: ObservableObject {
        var name = "base"
        @Published var inherited = 1.5
    }

    final class Derived: Base {
        var padding: (Int, Int)? = nil
        @Published var added = [1, 2]
        @Published var other: Int? = nil
    }

    final class Generic<T>: ObservableObject {
        var first: T
        @Published var value: T
        init(_ value: T) {
            first = value
            self.value = value
        }
    }

    final class NoPublished: ObservableObject {
        var count = 0
    }

    /// Both ways, for one object.
    private func layouts(_ object: AnyObject) -> (mirrored: ObservableLayout, reflected: ObservableLayout) {
        (ObservableLayout(mirroring: object), ObservableLayout(fieldsOf: type(of: object)))
    }

    @Test func theMirrorFindsTheSameFieldsAsTheRuntime() {
        let objects: [AnyObject] = [Plain(), Base(), Derived(), Generic("s"), Generic(3), NoPublished()]
        for object in objects {
            let (mirrored, reflected) = layouts(object)
            #expect(mirrored.publishedOffsets == reflected.publishedOffsets, "\(type(of: object))")
            #expect(mirrored.publishedNames == reflected.publishedNames, "\(type(of: object))")
        }
    }

    @Test func aSubclassListsItsSuperclassFieldsFirst() {
        let (mirrored, _) = layouts(Derived())
        #expect(mirrored.publishedNames == ["inherited", "added", "other"])
    }
}
