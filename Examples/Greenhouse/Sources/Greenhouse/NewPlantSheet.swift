#if canImport(SwiftUI)
import SwiftUI
#else
import RippleUI
#endif

/// The sheet that pots a new plant: its own draft, appended to the shelf on Pot, dropped on Cancel.
struct NewPlantSheet: View {
    @Binding var shelf: [Plant]
    @Binding var isPresented: Bool
    @State private var draft = Plant.seedling

    var body: some View {
        NavigationStack {
            PlantForm(plant: $draft)
                .navigationTitle("New Plant")
                .toolbar {
                    ToolbarItem(placement: .cancellationAction) {
                        Button("Cancel") { isPresented = false }
                    }
                    ToolbarItem(placement: .confirmationAction) {
                        Button("Pot") {
                            shelf.append(draft)
                            isPresented = false
                        }
                        .disabled(draft.name.isEmpty)
                    }
                }
        }
    }
}
