#if canImport(SwiftUI)
import SwiftUI
#else
import RippleUI
#endif

/// A watering round in progress, pushed from the plant's page; leaving it logs the round on the
/// plant (through the binding the page handed down).
struct WateringRound: View {
    @Binding var plant: Plant

    var body: some View {
        VStack {
            ProgressView(value: 0, total: Double(max(plant.chores.count, 1)))
            Circle()
                .strokeBorder(lineWidth: 12)
                .overlay {
                    Text(plant.chores.first.map { "First: \($0.what)" } ?? "Nothing to do")
                }
            Image(systemName: "drop.circle")
                .accessibilityLabel("Watering can")
        }
        .navigationTitle("Watering \(plant.name)")
        .onDisappear {
            plant.rounds.insert(Plant.Round(choreCount: plant.chores.count), at: 0)
        }
    }
}
