#if canImport(SwiftUI)
import SwiftUI
#else
import RippleUI
#endif

/// The trails grouped by region, with each region's favorite count.
struct RegionList: View {
    @Environment(TrailData.self) var trailData

    var body: some View {
        NavigationStack {
            List {
                ForEach(trailData.regions, id: \.self) { region in
                    let trails = trailData.trails.filter { $0.region == region }
                    Text("\(region): \(trails.count) trails, \(trails.filter(\.isFavorite).count) favorite")
                }
            }
            .navigationTitle("Regions")
        }
    }
}
