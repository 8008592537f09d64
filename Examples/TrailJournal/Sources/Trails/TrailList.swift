#if canImport(SwiftUI)
import SwiftUI
#else
import RippleUI
#endif

/// The trails, with a favorites filter and the hiker's profile in a sheet.
struct TrailList: View {
    @Environment(TrailData.self) var trailData
    @State private var showFavoritesOnly = false
    @State private var showingProfile = false

    var filteredTrails: [Trail] {
        trailData.trails.filter { trail in
            !showFavoritesOnly || trail.isFavorite
        }
    }

    var body: some View {
        NavigationStack {
            List {
                Toggle(isOn: $showFavoritesOnly) {
                    Text("Favorites only")
                }

                ForEach(filteredTrails) { trail in
                    NavigationLink {
                        TrailDetail(trail: trail)
                    } label: {
                        TrailRow(trail: trail)
                    }
                }
            }
            .navigationTitle("Trails")
            .toolbar {
                Button {
                    showingProfile.toggle()
                } label: {
                    Label("Profile", systemImage: "person.crop.circle")
                }
            }
            .sheet(isPresented: $showingProfile) {
                ProfileHost()
                    .environment(trailData)
            }
        }
    }
}

/// One trail in the list.
struct TrailRow: View {
    var trail: Trail

    var body: some View {
        HStack {
            Text(trail.name)
            Spacer()
            if trail.isFavorite {
                Image(systemName: "star.fill")
            }
        }
    }
}
