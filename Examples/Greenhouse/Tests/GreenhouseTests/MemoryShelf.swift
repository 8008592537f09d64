import Foundation
import Greenhouse

/// Shelf storage in memory: what the app stored, and loads or stores that can be made to fail.
actor MemoryShelf: ShelfStorage {
    struct Unreadable: Error {}
    struct Unwritable: Error {}

    private var bytes: Data?
    private let loadFails: Bool
    private let storeFails: Bool
    /// Every successful store, oldest first.
    private(set) var stores: [Data] = []
    /// How many stores were attempted, failed ones included.
    private(set) var attempts = 0

    /// Storage holding `plants` (nothing when `nil`).
    init(_ plants: [Plant]? = nil, loadFails: Bool = false, storeFails: Bool = false) {
        bytes = plants.map { try! JSONEncoder().encode($0) }
        self.loadFails = loadFails
        self.storeFails = storeFails
    }

    func load() async throws -> Data? {
        if loadFails { throw Unreadable() }
        return bytes
    }

    func store(_ data: Data) async throws {
        attempts += 1
        if storeFails { throw Unwritable() }
        bytes = data
        stores.append(data)
    }

    /// The plant names the last store holds (`nil` before the first).
    func storedNames() throws -> [String]? {
        try stores.last.map { try JSONDecoder().decode([Plant].self, from: $0).map(\.name) }
    }
}
