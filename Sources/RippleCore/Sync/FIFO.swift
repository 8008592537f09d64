/// A first-in, first-out queue: an array with a moving head, compacted when half of it is spent.
/// Amortized O(1) push and pop; no allocation while it stays within its capacity.
@usableFromInline
struct FIFO<Element> {
    @usableFromInline var storage: [Element] = []
    @usableFromInline var head = 0

    @inlinable
    init() {}

    @inlinable
    var isEmpty: Bool { head == storage.count }
    @inlinable
    var count: Int { storage.count - head }

    @inlinable
    mutating func append(_ element: Element) {
        storage.append(element)
    }

    @inlinable
    mutating func popFirst() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 32, head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }

    @inlinable
    mutating func removeAll() {
        storage.removeAll()
        head = 0
    }
}
