#if canImport(SwiftUI)
import SwiftUI
#else
import RippleUI
#endif

/// A pushed screen: one trail, with its favorite toggle bound into the shared data.
struct TrailDetail: View {
    @Environment(TrailData.self) var trailData
    var trail: Trail

    var trailIndex: Int {
        trailData.trails.firstIndex(where: { $0.id == trail.id })!
    }

    var body: some View {
        @Bindable var trailData = trailData

        VStack(alignment: .leading) {
            HStack {
                Text(trail.name)
                FavoriteButton(isSet: $trailData.trails[trailIndex].isFavorite)
            }
            Text("\(trail.region) · \(String(format: "%.1f", trail.kilometers)) km")
        }
        .navigationTitle(trail.name)
    }
}

/// A star that toggles a favorite.
struct FavoriteButton: View {
    @Binding var isSet: Bool

    var body: some View {
        Button {
            isSet.toggle()
        } label: {
            Label("Toggle Favorite", systemImage: isSet ? "star.fill" : "star")
                .labelStyle(.iconOnly)
        }
    }
}
