#if canImport(SwiftUI)
import SwiftUI
#else
import RippleUI
#endif

/// The app's root: a tab per way of browsing the journal.
public struct ContentView: View {
    @State private var selection: Tab = .trails

    enum Tab {
        case trails
        case regions
    }

    public init() {}

    public var body: some View {
        TabView(selection: $selection) {
            TrailList()
                .tabItem { Label("Trails", systemImage: "map") }
                .tag(Tab.trails)
            RegionList()
                .tabItem { Label("Regions", systemImage: "globe") }
                .tag(Tab.regions)
        }
    }
}
