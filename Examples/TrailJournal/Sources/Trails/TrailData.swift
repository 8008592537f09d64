#if canImport(SwiftUI)
import SwiftUI
#else
import RippleUI
#endif

/// A trail the hiker keeps in the journal.
public struct Trail: Identifiable, Hashable, Sendable {
    public var id: Int
    public var name: String
    public var region: String
    public var kilometers: Double
    public var isFavorite: Bool

    public init(id: Int, name: String, region: String, kilometers: Double, isFavorite: Bool = false) {
        self.id = id
        self.name = name
        self.region = region
        self.kilometers = kilometers
        self.isFavorite = isFavorite
    }
}

/// The hiker's profile.
public struct Hiker: Hashable, Sendable {
    public var name: String
    public var prefersLoops: Bool
    public var weeklyGoal: Int

    public static let `default` = Hiker(name: "Sam", prefersLoops: true, weeklyGoal: 20)
}

/// The journal's data, shared through the environment.
@Observable public final class TrailData {
    public var trails: [Trail] = [
        Trail(id: 1, name: "Cedar Ridge", region: "North", kilometers: 8.5, isFavorite: true),
        Trail(id: 2, name: "Fern Hollow", region: "South", kilometers: 4.2),
        Trail(id: 3, name: "Granite Steps", region: "North", kilometers: 12.0),
    ]
    public var hiker = Hiker.default

    public init() {}

    /// The regions, in order of first appearance.
    public var regions: [String] {
        trails.reduce(into: []) { regions, trail in if !regions.contains(trail.region) { regions.append(trail.region) } }
    }
}
