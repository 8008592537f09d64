import Observation
import Ripple
import RippleObservation
import RippleTesting
import Testing

/// RippleTesting's `propertiesRead` over toolchain `@Observable` models (issue 27: it returned `[]`
/// for them, while `withTracking` and `observe` saw the same reads).
@Suite struct PropertiesReadTests {
    @Observable final class Cart {
        var items: [String] = []
        var coupon = ""
        var note = ""
        var total: Int { items.count * 10 }
    }

    final class Basket: ObservableObject {
        @Published var apples = 0
        @Published var peaches = 0
    }

    init() {
        ObservationBridge.install()
    }

    @Test func listsTheObservablePropertiesRead() {
        let cart = Cart()
        #expect(propertiesRead { _ = cart.coupon } == ["Cart.coupon"])
        // Through a computed property: the stored one it reads. Sorted, each once.
        #expect(propertiesRead { _ = (cart.total, cart.coupon, cart.items) } == ["Cart.coupon", "Cart.items"])
        #expect(propertiesRead { _ = 1 + 1 }.isEmpty)
    }

    @Test func publishedReadsComeFirstInTheOrderRead() {
        let cart = Cart()
        let basket = Basket()
        let names = propertiesRead {
            _ = basket.peaches
            _ = cart.note
            _ = basket.apples
        }
        #expect(names == ["Basket.peaches", "Basket.apples", "Cart.note"])
    }

    @Test func looksWithoutObserving() {
        let cart = Cart()
        _ = propertiesRead { _ = cart.coupon }
        // Nothing stays registered: a later change reaches no callback, and a new observer still
        // sees the change (one-shot, property level).
        let fired = Box(0)
        withTracking { _ = cart.coupon } onChange: { _ in fired.update { $0 += 1 } }
        cart.note = "gift"
        cart.coupon = "SAVE10"
        #expect(fired.value == 1)
    }

    @Test func aThrowingBodyThrowsItsError() {
        struct Failure: Error {}
        let cart = Cart()
        #expect(throws: Failure.self) {
            _ = try propertiesRead { () throws(Failure) in
                _ = cart.coupon
                throw Failure()
            }
        }
    }
}
