import Observation
@testable import RippleObservation
import Testing

@Observable private final class NamedBasket {
    var apples = 0
    var peaches = 0
    var label = ""
}

private struct NamedPoint {
    var x = 0
    var y = 0
}

/// How the render log names the property of a change that arrives as a key path alone.
@Suite struct PropertyNamesTests {
    @Test func aStoredPropertysKeyPathNamesItself() {
        #expect(PropertyNames.name(of: \NamedPoint.x) == "x")
        #expect(PropertyNames.name(of: \NamedPoint.y) == "y")
    }

    @Test func anObservableModelsPropertiesAreNamedFromTheBinarysSymbols() {
        // Two properties of the same type, with getters of the same shape, must not be confused
        // (an optimized build may also route a key path through a stub that jumps to the getter).
        #expect(PropertyNames.name(of: \NamedBasket.apples) == "apples", "\(PropertyNames.lastFailure ?? "")")
        #expect(PropertyNames.name(of: \NamedBasket.peaches) == "peaches", "\(PropertyNames.lastFailure ?? "")")
        #expect(PropertyNames.name(of: \NamedBasket.label) == "label", "\(PropertyNames.lastFailure ?? "")")
    }

    @Test func aKeyPathThroughSeveralPropertiesIsNotNamed() {
        #expect(PropertyNames.name(of: \NamedBasket.label.count) == nil)
    }

    @Test func theNameIsTakenFromEitherFormOfTheDemangledSymbol() {
        #expect(
            PropertyNames.propertyName(
                fromDemangled: "key path getter for Shop.Basket.apples : Swift.Int : Shop.Basket") == "apples")
        #expect(PropertyNames.propertyName(fromDemangled: "Shop.Basket.peaches.getter : Swift.Int") == "peaches")
        #expect(PropertyNames.propertyName(fromDemangled: "Shop.Basket.init() -> Shop.Basket") == nil)
    }
}
