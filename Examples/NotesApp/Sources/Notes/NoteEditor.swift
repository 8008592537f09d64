#if canImport(SwiftUI)
import SwiftUI
#else
import RippleUI
#endif

/// The sheet that edits a draft of a note; Save hands it back, Cancel drops it.
struct NoteEditor: View {
    @Environment(\.dismiss) private var dismiss
    @State private var draft: Note
    @FocusState private var titleFocused: Bool
    let onSave: (Note) -> Void

    init(note: Note, onSave: @escaping (Note) -> Void) {
        _draft = State(initialValue: note)
        self.onSave = onSave
    }

    var body: some View {
        NavigationStack {
            Form {
                Section(header: Text("Title")) {
                    TextField("Title", text: $draft.title)
                        .focused($titleFocused)
                }
                Section(header: Text("Text")) {
                    TextField("Text", text: $draft.body, axis: .vertical)
                }
            }
            .navigationTitle(draft.title.isEmpty ? "New Note" : draft.title)
            .toolbar {
                ToolbarItem(placement: .cancellationAction) {
                    Button("Cancel") { dismiss() }
                }
                ToolbarItem(placement: .confirmationAction) {
                    Button("Save") {
                        onSave(draft)
                        dismiss()
                    }
                    .disabled(draft.title.isEmpty)
                }
            }
            .onAppear { titleFocused = true }
        }
    }
}
