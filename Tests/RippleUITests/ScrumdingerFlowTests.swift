import Foundation
import RippleUI
import Testing

// Apple's Scrumdinger tutorial, written the way the tutorial writes it: an `ObservableObject`
// store at the top, `$store.scrums` passed down, `List($scrums) { $scrum in NavigationLink(…) }`,
// a sheet editing a draft, a meeting that records its history when it disappears, an error sheet
// whose `onDismiss` loads sample data, and `onChange(of: scenePhase)` saving.

private struct DailyScrum: Identifiable, Equatable {
    let id: UUID
    var title: String
    var attendees: [Attendee]
    var lengthInMinutes: Int
    var history: [History] = []

    init(id: UUID = UUID(), title: String, attendees: [String], lengthInMinutes: Int) {
        self.id = id
        self.title = title
        self.attendees = attendees.map { Attendee(name: $0) }
        self.lengthInMinutes = lengthInMinutes
    }

    struct Attendee: Identifiable, Equatable {
        let id = UUID()
        var name: String
    }

    static var emptyScrum: DailyScrum { DailyScrum(title: "", attendees: [], lengthInMinutes: 5) }

    static let sampleData = [
        DailyScrum(title: "Design", attendees: ["Cathy", "Daisy", "Simon"], lengthInMinutes: 10),
        DailyScrum(title: "App Dev", attendees: ["Katie", "Gray"], lengthInMinutes: 5),
    ]
}

private struct History: Identifiable, Equatable {
    let id = UUID()
    var attendees: [DailyScrum.Attendee]
}

private struct ErrorWrapper: Identifiable {
    let id = UUID()
    let guidance: String
}

private struct LoadError: Error {}

@MainActor private final class ScrumStore: ObservableObject {
    @Published var scrums: [DailyScrum] = []
    private(set) var saved: [[DailyScrum]] = []

    func load() async throws { throw LoadError() }
    func save(scrums: [DailyScrum]) async throws { saved.append(scrums) }
}

private struct ScrumdingerRoot: View {
    @StateObject var store: ScrumStore
    @State private var errorWrapper: ErrorWrapper?

    var body: some View {
        ScrumsView(scrums: $store.scrums) {
            Task {
                do {
                    try await store.save(scrums: store.scrums)
                } catch {
                    errorWrapper = ErrorWrapper(guidance: "Try again later.")
                }
            }
        }
        .task {
            do {
                try await store.load()
            } catch {
                errorWrapper = ErrorWrapper(guidance: "Scrumdinger will load sample data and continue.")
            }
        }
        .sheet(item: $errorWrapper) {
            store.scrums = DailyScrum.sampleData
        } content: { wrapper in
            ErrorView(errorWrapper: wrapper)
        }
    }
}

private struct ErrorView: View {
    let errorWrapper: ErrorWrapper
    @Environment(\.dismiss) private var dismiss

    var body: some View {
        NavigationStack {
            VStack {
                Text("An error has occurred!")
                Text(errorWrapper.guidance)
            }
            .toolbar {
                ToolbarItem(placement: .navigationBarTrailing) {
                    Button("Dismiss") { dismiss() }
                }
            }
        }
    }
}

private struct ScrumsView: View {
    @Binding var scrums: [DailyScrum]
    @Environment(\.scenePhase) private var scenePhase
    @State private var isPresentingNewScrumView = false
    let saveAction: () -> Void

    var body: some View {
        NavigationStack {
            List($scrums) { $scrum in
                NavigationLink(destination: DetailView(scrum: $scrum)) {
                    CardView(scrum: scrum)
                }
            }
            .navigationTitle("Daily Scrums")
            .toolbar {
                Button(action: { isPresentingNewScrumView = true }) {
                    Image(systemName: "plus")
                }
                .accessibilityLabel("New Scrum")
            }
        }
        .sheet(isPresented: $isPresentingNewScrumView) {
            NewScrumSheet(scrums: $scrums, isPresentingNewScrumView: $isPresentingNewScrumView)
        }
        .onChange(of: scenePhase) { phase in
            if phase == .inactive { saveAction() }
        }
    }
}

private struct TrailingIconLabelStyle: LabelStyle {
    func makeBody(configuration: Configuration) -> some View {
        HStack {
            configuration.title
            configuration.icon
        }
    }
}

extension LabelStyle where Self == TrailingIconLabelStyle {
    fileprivate static var trailingIcon: Self { Self() }
}

private struct CardView: View {
    let scrum: DailyScrum
    var body: some View {
        VStack(alignment: .leading) {
            Text(scrum.title)
            HStack {
                Label("\(scrum.attendees.count)", systemImage: "person.3")
                Spacer()
                Label("\(scrum.lengthInMinutes)", systemImage: "clock")
                    .labelStyle(.trailingIcon)
            }
        }
    }
}

private struct NewScrumSheet: View {
    @State private var newScrum = DailyScrum.emptyScrum
    @Binding var scrums: [DailyScrum]
    @Binding var isPresentingNewScrumView: Bool

    var body: some View {
        NavigationStack {
            DetailEditView(scrum: $newScrum)
                .toolbar {
                    ToolbarItem(placement: .cancellationAction) {
                        Button("Dismiss") { isPresentingNewScrumView = false }
                    }
                    ToolbarItem(placement: .confirmationAction) {
                        Button("Add") {
                            scrums.append(newScrum)
                            isPresentingNewScrumView = false
                        }
                    }
                }
        }
    }
}

private struct DetailEditView: View {
    @Binding var scrum: DailyScrum
    @State private var newAttendeeName = ""

    var body: some View {
        Form {
            Section(header: Text("Meeting Info")) {
                TextField("Title", text: $scrum.title)
            }
            Section(header: Text("Attendees")) {
                ForEach(scrum.attendees) { attendee in
                    Text(attendee.name)
                }
                .onDelete { indices in scrum.attendees.remove(atOffsets: indices) }
                HStack {
                    TextField("New Attendee", text: $newAttendeeName)
                    Button(action: {
                        withAnimation {
                            scrum.attendees.append(DailyScrum.Attendee(name: newAttendeeName))
                            newAttendeeName = ""
                        }
                    }) {
                        Image(systemName: "plus.circle.fill")
                            .accessibilityLabel("Add attendee")
                    }
                    .disabled(newAttendeeName.isEmpty)
                }
            }
        }
    }
}

private struct DetailView: View {
    @Binding var scrum: DailyScrum
    @State private var editingScrum = DailyScrum.emptyScrum
    @State private var isPresentingEditView = false

    var body: some View {
        List {
            Section(header: Text("Meeting Info")) {
                NavigationLink(destination: MeetingView(scrum: $scrum)) {
                    Label("Start Meeting", systemImage: "timer")
                }
                HStack {
                    Label("Length", systemImage: "clock")
                    Spacer()
                    Text("\(scrum.lengthInMinutes) minutes")
                }
            }
            Section(header: Text("Attendees")) {
                ForEach(scrum.attendees) { attendee in
                    Label(attendee.name, systemImage: "person")
                }
            }
            Section(header: Text("History")) {
                if scrum.history.isEmpty {
                    Label("No meetings yet", systemImage: "calendar.badge.exclamationmark")
                }
                ForEach(scrum.history) { history in
                    Text("Meeting of \(history.attendees.count)")
                }
            }
        }
        .navigationTitle(scrum.title)
        .toolbar {
            Button("Edit") {
                isPresentingEditView = true
                editingScrum = scrum
            }
        }
        .sheet(isPresented: $isPresentingEditView) {
            NavigationStack {
                DetailEditView(scrum: $editingScrum)
                    .navigationTitle(scrum.title)
                    .toolbar {
                        ToolbarItem(placement: .cancellationAction) {
                            Button("Cancel") { isPresentingEditView = false }
                        }
                        ToolbarItem(placement: .confirmationAction) {
                            Button("Done") {
                                isPresentingEditView = false
                                scrum = editingScrum
                            }
                        }
                    }
            }
        }
    }
}

private struct ScrumProgressViewStyle: ProgressViewStyle {
    func makeBody(configuration: Configuration) -> some View {
        ZStack {
            RoundedRectangle(cornerRadius: 10.0)
                .fill(Color.orange)
                .frame(height: 20.0)
            ProgressView(configuration)
                .frame(height: 12.0)
                .padding(.horizontal)
        }
    }
}

private struct MeetingView: View {
    @Binding var scrum: DailyScrum

    var body: some View {
        VStack {
            ProgressView(value: 0.0, total: 1.0)
                .progressViewStyle(ScrumProgressViewStyle())
            Circle()
                .strokeBorder(lineWidth: 24)
                .overlay {
                    Text("Speaker 1 of \(scrum.attendees.count)")
                }
            Image(systemName: "mic")
                .accessibilityLabel("with transcription")
        }
        .onDisappear { endScrum() }
        .navigationTitle(scrum.title)
    }

    private func endScrum() {
        scrum.history.insert(History(attendees: scrum.attendees), at: 0)
    }
}

@Suite @MainActor struct ScrumdingerFlowTests {
    @Test func theTutorialsFlowShowsEveryChangeMadeThroughTheStoresBindings() async throws {
        let store = ScrumStore()
        let tree = RenderTree(ScrumdingerRoot(store: store))
        // Loading fails: the error sheet is presented; dismissing it loads the sample data.
        await tree.waitForTasks()
        #expect(tree.isPresentingSheet)
        try tree.tap("Dismiss")
        #expect(!tree.isPresentingSheet)
        #expect(tree.texts == ["Design", "3", "10", "App Dev", "2", "5"])

        // A new scrum added through the sheet is in the list.
        try tree.tap("New Scrum")
        try tree.type("Retro", into: "Title")
        try tree.type("Ann", into: "New Attendee")
        try tree.tap("Add attendee")
        try tree.tap("Add")
        #expect(store.scrums.map(\.title) == ["Design", "App Dev", "Retro"])
        #expect(tree.texts == ["Design", "3", "10", "App Dev", "2", "5", "Retro", "1", "5"])

        // An edit saved in the detail's sheet shows on the pushed detail screen.
        try tree.tap("Retro")
        #expect(tree.navigationTitle == "Retro")
        try tree.tap("Edit")
        try tree.type("Retrospective", into: "Title")
        try tree.tap("Done")
        #expect(!tree.isPresentingSheet)
        #expect(tree.navigationTitles == ["Daily Scrums", "Retrospective"])
        #expect(tree.texts.contains("No meetings yet"))

        // A meeting records its history when it disappears: the row appears on the detail screen.
        try tree.tap("Start Meeting")
        #expect(tree.texts.contains("Speaker 1 of 1"))
        #expect(tree.hasImage("with transcription"))
        try tree.back()
        #expect(tree.texts.contains("Meeting of 1"))
        #expect(!tree.texts.contains("No meetings yet"))

        // Back on the list, the edited title; going inactive saves the store.
        try tree.back()
        #expect(tree.texts == ["Design", "3", "10", "App Dev", "2", "5", "Retrospective", "1", "5"])
        tree.scenePhase = .inactive
        // The save runs in a `Task` the action started (not a `.task`): let it run.
        for _ in 0..<1_000 where store.saved.isEmpty { await Task.yield() }
        #expect(store.saved.last?.map(\.title) == ["Design", "App Dev", "Retrospective"])
        #expect(store.saved.last?.last?.history.count == 1)
    }
}
