#if canImport(SwiftUI)
import SwiftUI
#else
import RippleUI
#endif

/// The first screen: the notes, pinned first, sorted by date or (a stored setting) by title.
public struct NoteList: View {
    @EnvironmentObject private var store: NoteStore
    @AppStorage("sortByTitle") private var sortByTitle = false
    @State private var isAddingNote = false

    public init() {}

    private var sortedNotes: [Note] {
        store.notes.sorted { a, b in
            if a.isPinned != b.isPinned { return a.isPinned }
            return sortByTitle ? a.title < b.title : a.modified > b.modified
        }
    }

    public var body: some View {
        NavigationStack {
            List {
                if store.isLoading {
                    ProgressView("Loading…")
                }
                Section(header: Text("\(store.notes.count) notes")) {
                    ForEach(sortedNotes) { note in
                        NavigationLink(value: note.id) {
                            NoteRow(note: note)
                        }
                    }
                    .onDelete { offsets in
                        let notes = sortedNotes
                        store.delete(offsets.map { notes[$0].id })
                    }
                }
            }
            .navigationTitle("Notes")
            .navigationDestination(for: Note.ID.self) { id in
                NoteDetail(noteID: id)
            }
            .toolbar {
                ToolbarItem(placement: .primaryAction) {
                    Button {
                        isAddingNote = true
                    } label: {
                        Image(systemName: "square.and.pencil")
                    }
                    .accessibilityLabel("New Note")
                }
                ToolbarItem(placement: .bottomBar) {
                    Toggle("Sort by title", isOn: $sortByTitle)
                }
            }
            .sheet(isPresented: $isAddingNote) {
                NoteEditor(note: .empty()) { store.add($0) }
            }
            .task {
                await store.loadIfNeeded()
            }
        }
    }
}

/// One row of the list.
struct NoteRow: View {
    let note: Note

    var body: some View {
        HStack(alignment: .firstTextBaseline, spacing: 8) {
            if note.isPinned {
                Image(systemName: "pin.fill")
                    .foregroundStyle(.orange)
            }
            Text(note.title)
                .font(.headline)
            Spacer()
        }
        .padding(.vertical, 4)
    }
}
