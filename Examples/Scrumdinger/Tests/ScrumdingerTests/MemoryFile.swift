import Foundation
import Scrumdinger

/// The store's file, in memory: what the app wrote, and a read that can fail.
actor MemoryFile: ScrumFile {
    struct ReadError: Error {}

    private var contents: Data?
    private let failsToRead: Bool
    /// Every write, oldest first.
    private(set) var writes: [Data] = []

    /// A file holding `scrums` (no file when `nil`), or one whose read fails.
    init(scrums: [DailyScrum]? = nil, failsToRead: Bool = false) {
        contents = try! scrums.map { try JSONEncoder().encode($0) }
        self.failsToRead = failsToRead
    }

    func read() async throws -> Data? {
        if failsToRead { throw ReadError() }
        return contents
    }

    func write(_ data: Data) async throws {
        contents = data
        writes.append(data)
    }

    /// The scrums the last write holds (`nil` before the first write).
    func savedScrums() throws -> [DailyScrum]? {
        try writes.last.map { try JSONDecoder().decode([DailyScrum].self, from: $0) }
    }
}
