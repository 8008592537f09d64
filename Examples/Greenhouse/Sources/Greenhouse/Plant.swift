import Foundation

/// A plant on the shelf: what it is called, how often it wants water, the chores of a watering
/// round, and the rounds done so far (newest first).
public struct Plant: Identifiable, Codable, Equatable, Sendable {
    public let id: UUID
    /// What the shelf and the page call it.
    public var name: String
    /// Days between waterings.
    public var wateringEveryDays: Int
    /// What a watering round does, in order.
    public var chores: [Chore]
    /// The rounds done so far, newest first.
    public var rounds: [Round] = []

    /// The interval as a `Double`, what the edit form's slider moves.
    public var wateringEveryDaysValue: Double {
        get { Double(wateringEveryDays) }
        set { wateringEveryDays = Int(newValue.rounded()) }
    }

    public init(id: UUID = UUID(), name: String, wateringEveryDays: Int, chores: [String]) {
        self.id = id
        self.name = name
        self.wateringEveryDays = wateringEveryDays
        self.chores = chores.map { Chore(what: $0) }
    }

    /// What the new-plant sheet starts from.
    public static var seedling: Plant { Plant(name: "", wateringEveryDays: 7, chores: []) }
}

extension Plant {
    /// One thing to do in a watering round.
    public struct Chore: Identifiable, Codable, Equatable, Sendable {
        public let id: UUID
        public var what: String

        public init(id: UUID = UUID(), what: String) {
            self.id = id
            self.what = what
        }
    }

    /// A watering round that was finished: when, and how many chores it had.
    public struct Round: Identifiable, Codable, Equatable, Sendable {
        public let id: UUID
        public let finished: Date
        public let choreCount: Int

        public init(id: UUID = UUID(), finished: Date = Date(), choreCount: Int) {
            self.id = id
            self.finished = finished
            self.choreCount = choreCount
        }
    }
}

extension Plant {
    /// The shelf the app starts over with when its saved shelf cannot be read.
    public static let starterShelf: [Plant] = [
        Plant(name: "Fern", wateringEveryDays: 3, chores: ["Mist fronds", "Check drainage"]),
        Plant(name: "Cactus", wateringEveryDays: 14, chores: ["Soak soil"]),
        Plant(name: "Basil", wateringEveryDays: 2, chores: ["Pinch tips", "Turn pot", "Water base"]),
    ]
}
