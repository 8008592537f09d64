import Foundation

/// A note.
public struct Note: Identifiable, Hashable, Sendable {
    public let id: UUID
    public var title: String
    public var body: String
    public var isPinned: Bool
    public var modified: Date

    public init(id: UUID = UUID(), title: String, body: String = "", isPinned: Bool = false, modified: Date = .now) {
        self.id = id
        self.title = title
        self.body = body
        self.isPinned = isPinned
        self.modified = modified
    }

    /// A new, empty note.
    public static func empty() -> Note { Note(title: "") }

    /// What a fresh install shows.
    public static let samples = [
        Note(title: "Groceries", body: "Milk, eggs, tea", modified: Date(timeIntervalSince1970: 1_780_000_000)),
        Note(title: "Ideas", body: "A headless render tree", modified: Date(timeIntervalSince1970: 1_790_000_000)),
    ]
}
