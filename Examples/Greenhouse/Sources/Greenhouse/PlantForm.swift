#if canImport(SwiftUI)
import SwiftUI
#else
import RippleUI
#endif

/// The form shared by the edit sheet and the new-plant sheet: everything about a plant, through
/// one binding. The chore being typed is this form's own state.
struct PlantForm: View {
    @Binding var plant: Plant
    @State private var pendingChore = ""

    var body: some View {
        Form {
            Section("Plant") {
                TextField("Name", text: $plant.name)
                Slider(value: $plant.wateringEveryDaysValue, in: 1...30, step: 1) {
                    Text("Interval")
                }
                Text("Water every \(plant.wateringEveryDays) days")
            }
            Section("Chores") {
                ForEach(plant.chores) { chore in
                    Text(chore.what)
                }
                .onDelete { offsets in plant.chores.remove(atOffsets: offsets) }
                HStack {
                    TextField("Chore", text: $pendingChore)
                    Button {
                        withAnimation {
                            plant.chores.append(Plant.Chore(what: pendingChore))
                            pendingChore = ""
                        }
                    } label: {
                        Image(systemName: "plus")
                            .accessibilityLabel("Add Chore")
                    }
                    .disabled(pendingChore.isEmpty)
                }
            }
        }
    }
}
