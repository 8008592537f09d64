#if canImport(SwiftUI)
import SwiftUI
#else
import RippleUI
#endif

/// The first screen: the store's plants, one row each; a row pushes the plant's page, a swipe
/// removes it, the toolbar's button opens the new-plant sheet.
struct ShelfView: View {
    @EnvironmentObject private var store: PlantStore
    @Environment(\.scenePhase) private var scenePhase
    @State private var isAddingPlant = false
    let onInactive: () -> Void

    var body: some View {
        NavigationStack {
            List {
                ForEach($store.plants) { $plant in
                    NavigationLink(destination: PlantPage(plant: $plant)) {
                        PlantRow(plant: plant)
                    }
                }
                .onDelete { offsets in store.plants.remove(atOffsets: offsets) }
            }
            .navigationTitle("Shelf")
            .toolbar {
                Button {
                    isAddingPlant = true
                } label: {
                    Image(systemName: "leaf.arrow.circlepath")
                }
                .accessibilityLabel("Add Plant")
            }
        }
        .sheet(isPresented: $isAddingPlant) {
            NewPlantSheet(shelf: $store.plants, isPresented: $isAddingPlant)
        }
        .onChange(of: scenePhase) { _, phase in
            if phase == .inactive { onInactive() }
        }
    }
}

/// A shelf row: the plant's name and how often it is watered.
struct PlantRow: View {
    let plant: Plant

    var body: some View {
        HStack {
            Text(plant.name)
            Spacer()
            Label("every \(plant.wateringEveryDays) d", systemImage: "drop")
                .labelStyle(.dropAfterText)
        }
        .accessibilityElement(children: .combine)
    }
}

/// A label that shows its title first and its icon after it.
struct DropAfterTextLabelStyle: LabelStyle {
    func makeBody(configuration: Configuration) -> some View {
        HStack(spacing: 4) {
            configuration.title
            configuration.icon
        }
    }
}

extension LabelStyle where Self == DropAfterTextLabelStyle {
    /// The title, then the icon.
    static var dropAfterText: Self { Self() }
}
