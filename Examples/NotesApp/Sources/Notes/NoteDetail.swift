#if canImport(SwiftUI)
import SwiftUI
#else
import RippleUI
#endif

/// A pushed screen: one note, with a pin toggle and an edit sheet.
struct NoteDetail: View {
    let noteID: Note.ID
    @EnvironmentObject private var store: NoteStore
    @State private var isEditing = false

    var body: some View {
        if let note = store.note(noteID) {
            Form {
                Section(header: Text("Note")) {
                    Text(note.body.isEmpty ? "No text" : note.body)
                    Text(note.modified, style: .date)
                        .font(.caption)
                        .foregroundStyle(.secondary)
                }
                Toggle(
                    "Pinned",
                    isOn: Binding(get: { note.isPinned }, set: { store.setPinned(noteID, $0) }))
            }
            .navigationTitle(note.title)
            .toolbar {
                Button("Edit") { isEditing = true }
            }
            .sheet(isPresented: $isEditing) {
                NoteEditor(note: note) { store.update($0) }
            }
        } else {
            Text("This note was deleted.")
        }
    }
}
