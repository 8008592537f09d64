import Foundation
#if canImport(SwiftUI)
import SwiftUI
#else
import RippleUI
#endif

/// Where the store keeps the shelf between launches.
public protocol ShelfStorage: Sendable {
    /// The saved bytes; `nil` when nothing was saved yet.
    func load() async throws -> Data?
    /// Replaces the saved bytes.
    func store(_ data: Data) async throws
}

/// `greenhouse.json` in the caches folder.
public struct CachesShelfStorage: ShelfStorage {
    public init() {}

    private var url: URL {
        FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
            .appendingPathComponent("greenhouse.json")
    }

    public func load() async throws -> Data? {
        FileManager.default.fileExists(atPath: url.path) ? try Data(contentsOf: url) : nil
    }

    public func store(_ data: Data) async throws {
        try data.write(to: url, options: .atomic)
    }
}

/// The app's plants, read from storage at launch and written back when the app goes inactive.
@MainActor
public final class PlantStore: ObservableObject {
    @Published public var plants: [Plant] = []
    private let storage: any ShelfStorage

    /// A store over `storage`.
    public init(storage: any ShelfStorage = CachesShelfStorage()) {
        self.storage = storage
    }

    /// Replaces `plants` with what storage holds (an empty shelf when it holds nothing).
    public func restore() async throws {
        guard let data = try await storage.load() else {
            plants = []
            return
        }
        plants = try JSONDecoder().decode([Plant].self, from: data)
    }

    /// Writes the current plants to storage.
    public func persist() async throws {
        let data = try JSONEncoder().encode(plants)
        try await storage.store(data)
    }
}
