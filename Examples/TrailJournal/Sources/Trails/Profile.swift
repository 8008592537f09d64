#if canImport(SwiftUI)
import SwiftUI
#else
import RippleUI
#endif

/// The profile sheet: a summary, or an editor of a draft while editing. Done saves the draft;
/// Cancel keeps the saved profile.
struct ProfileHost: View {
    @Environment(\.editMode) var editMode
    @Environment(TrailData.self) var trailData
    @State private var draftHiker = Hiker.default

    var body: some View {
        VStack(alignment: .leading, spacing: 20) {
            HStack {
                if editMode?.wrappedValue == .active {
                    Button("Cancel", role: .cancel) {
                        draftHiker = trailData.hiker
                        editMode?.animation().wrappedValue = .inactive
                    }
                }
                Spacer()
                EditButton()
            }

            if editMode?.wrappedValue == .inactive {
                ProfileSummary(hiker: trailData.hiker)
            } else {
                ProfileEditor(hiker: $draftHiker)
                    .onAppear {
                        draftHiker = trailData.hiker
                    }
                    .onDisappear {
                        if editMode?.wrappedValue == .inactive {
                            trailData.hiker = draftHiker
                        }
                    }
            }
        }
        .padding()
    }
}

/// The saved profile.
struct ProfileSummary: View {
    var hiker: Hiker

    var body: some View {
        VStack(alignment: .leading) {
            Text(hiker.name)
            Text("Prefers loops: \(hiker.prefersLoops ? "yes" : "no")")
            Text("Weekly goal: \(hiker.weeklyGoal) km")
        }
    }
}

/// The draft under edit.
struct ProfileEditor: View {
    @Binding var hiker: Hiker

    var body: some View {
        List {
            HStack {
                Text("Name")
                TextField("Name", text: $hiker.name)
            }
            Toggle(isOn: $hiker.prefersLoops) {
                Text("Prefer loops")
            }
            Stepper("Weekly goal: \(hiker.weeklyGoal) km", value: $hiker.weeklyGoal, in: 5...100, step: 5)
        }
    }
}
