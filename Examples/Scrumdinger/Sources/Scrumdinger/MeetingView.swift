#if canImport(SwiftUI)
import SwiftUI
#else
import RippleUI
#endif

/// A meeting in progress; leaving it adds it to the scrum's history.
struct MeetingView: View {
    @Binding var scrum: DailyScrum

    var body: some View {
        VStack {
            ProgressView(value: 0.0, total: 1.0)
            Circle()
                .strokeBorder(lineWidth: 24)
                .overlay {
                    Text("Speaker 1 of \(scrum.attendees.count)")
                }
            Image(systemName: "mic")
                .accessibilityLabel("with transcription")
        }
        .padding()
        .onDisappear {
            endScrum()
        }
        .navigationTitle(scrum.title)
    }

    private func endScrum() {
        let newHistory = History(attendees: scrum.attendees)
        scrum.history.insert(newHistory, at: 0)
    }
}
