#if canImport(SwiftUI)
import SwiftUI
#else
import RippleUI
#endif

/// A pushed page for one plant (a binding into the store's array). Edit opens a sheet over a
/// draft copy; Save writes the draft back through the binding, Discard drops it.
struct PlantPage: View {
    @Binding var plant: Plant
    @State private var draft = Plant.seedling
    @State private var isEditing = false

    var body: some View {
        List {
            Section("Care") {
                NavigationLink(destination: WateringRound(plant: $plant)) {
                    Label("Water now", systemImage: "drop.fill")
                }
                Text("Every \(plant.wateringEveryDays) days")
            }
            Section("Chores") {
                ForEach(plant.chores) { chore in
                    Text(chore.what)
                }
            }
            Section("Rounds") {
                if plant.rounds.isEmpty {
                    Text("Never watered here")
                }
                ForEach(plant.rounds) { round in
                    Text("Round of \(round.choreCount) chores")
                }
            }
        }
        .navigationTitle(plant.name)
        .toolbar {
            Button("Edit") {
                draft = plant
                isEditing = true
            }
        }
        .sheet(isPresented: $isEditing) {
            NavigationStack {
                PlantForm(plant: $draft)
                    .navigationTitle("Editing \(plant.name)")
                    .toolbar {
                        ToolbarItem(placement: .cancellationAction) {
                            Button("Discard") { isEditing = false }
                        }
                        ToolbarItem(placement: .confirmationAction) {
                            Button("Save") {
                                plant = draft
                                isEditing = false
                            }
                        }
                    }
            }
        }
    }
}
