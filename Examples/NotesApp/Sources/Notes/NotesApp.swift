#if canImport(SwiftUI)
import SwiftUI
#else
import RippleUI
#endif

/// The app: a list of notes, saved when the app leaves the foreground.
public struct NotesApp: App {
    @StateObject private var store: NoteStore
    @Environment(\.scenePhase) private var scenePhase

    public init() { self.init(store: NoteStore()) }

    /// The app with `store` (tests hand in one they can look at).
    public init(store: @autoclosure @escaping () -> NoteStore) {
        _store = StateObject(wrappedValue: store())
    }

    public var body: some Scene {
        WindowGroup {
            NoteList()
                .environmentObject(store)
        }
        .onChange(of: scenePhase) { _, phase in
            if phase == .background { store.save() }
        }
    }
}
