#if canImport(SwiftUI)
import SwiftUI
#else
import RippleUI
#endif
import Foundation

/// The app's notes: loaded when the list appears, saved when the app goes to the background.
@MainActor
public final class NoteStore: ObservableObject {
    @Published public private(set) var notes: [Note] = []
    @Published public private(set) var isLoading = false
    /// What the last save wrote (the app keeps it in memory; a real one writes a file).
    @Published public private(set) var saved: [Note]?

    private let load: @Sendable () async -> [Note]

    /// A store that loads its notes with `load`.
    public init(load: @escaping @Sendable () async -> [Note] = { Note.samples }) {
        self.load = load
    }

    /// Loads the notes (once).
    public func loadIfNeeded() async {
        guard notes.isEmpty, !isLoading else { return }
        isLoading = true
        let loaded = await load()
        notes = loaded
        isLoading = false
    }

    public func note(_ id: Note.ID) -> Note? { notes.first { $0.id == id } }

    public func add(_ note: Note) { notes.append(note) }

    public func update(_ note: Note) {
        guard let index = notes.firstIndex(where: { $0.id == note.id }) else { return }
        var changed = note
        changed.modified = .now
        notes[index] = changed
    }

    public func setPinned(_ id: Note.ID, _ isPinned: Bool) {
        guard let index = notes.firstIndex(where: { $0.id == id }) else { return }
        notes[index].isPinned = isPinned
    }

    public func delete(_ ids: [Note.ID]) { notes.removeAll { ids.contains($0.id) } }

    public func save() { saved = notes }
}
