#if canImport(SwiftUI)
import SwiftUI
#else
import RippleUI
#endif

/// The first screen: a card per scrum; tapping one pushes its detail screen.
struct ScrumsView: View {
    @Binding var scrums: [DailyScrum]
    @Environment(\.scenePhase) private var scenePhase
    @State private var isPresentingNewScrumView = false
    let saveAction: () -> Void

    var body: some View {
        NavigationStack {
            // The tutorial writes `List($scrums) { $scrum in … }` and deletes no scrums; `.onDelete`
            // needs a `ForEach` (in SwiftUI too), whose rows get the same element bindings.
            List {
                ForEach($scrums) { $scrum in
                    NavigationLink(destination: DetailView(scrum: $scrum)) {
                        CardView(scrum: scrum)
                    }
                }
                .onDelete { indices in scrums.remove(atOffsets: indices) }
            }
            .navigationTitle("Daily Scrums")
            .toolbar {
                Button(action: {
                    isPresentingNewScrumView = true
                }) {
                    Image(systemName: "plus")
                }
                .accessibilityLabel("New Scrum")
            }
        }
        .sheet(isPresented: $isPresentingNewScrumView) {
            NewScrumSheet(scrums: $scrums, isPresentingNewScrumView: $isPresentingNewScrumView)
        }
        .onChange(of: scenePhase) { _, phase in
            if phase == .inactive { saveAction() }
        }
    }
}
