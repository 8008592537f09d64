#if canImport(SwiftUI)
import SwiftUI
#else
import RippleUI
#endif
import Foundation

/// Where the store keeps its data: a file in the documents folder in the app, memory in tests.
public protocol ScrumFile: Sendable {
    /// The file's contents; `nil` when there is no file yet.
    func read() async throws -> Data?
    /// Replaces the file's contents.
    func write(_ data: Data) async throws
}

/// `scrums.data` in the user's documents folder (the tutorial's file).
public struct DocumentsScrumFile: ScrumFile {
    public init() {}

    private func fileURL() throws -> URL {
        try FileManager.default.url(for: .documentDirectory, in: .userDomainMask, appropriateFor: nil, create: false)
            .appendingPathComponent("scrums.data")
    }

    public func read() async throws -> Data? {
        try? Data(contentsOf: fileURL())
    }

    public func write(_ data: Data) async throws {
        try data.write(to: fileURL())
    }
}

/// The app's scrums: loaded when the app starts, saved when it becomes inactive.
@MainActor
public final class ScrumStore: ObservableObject {
    @Published public var scrums: [DailyScrum] = []

    private let file: any ScrumFile

    /// A store that keeps its scrums in `file`.
    public init(file: any ScrumFile = DocumentsScrumFile()) {
        self.file = file
    }

    /// Reads the scrums from the file (none when there is no file yet).
    public func load() async throws {
        let file = file
        let task = Task<[DailyScrum], Error> {
            guard let data = try await file.read() else { return [] }
            return try JSONDecoder().decode([DailyScrum].self, from: data)
        }
        let scrums = try await task.value
        self.scrums = scrums
    }

    /// Writes `scrums` to the file.
    public func save(scrums: [DailyScrum]) async throws {
        let file = file
        let task = Task {
            let data = try JSONEncoder().encode(scrums)
            try await file.write(data)
        }
        _ = try await task.value
    }
}
