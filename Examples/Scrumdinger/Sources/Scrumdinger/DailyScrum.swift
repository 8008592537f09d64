import Foundation

/// A daily scrum: who attends, how long it runs, and the meetings held so far.
public struct DailyScrum: Identifiable, Codable, Equatable, Sendable {
    public let id: UUID
    public var title: String
    public var attendees: [Attendee]
    public var lengthInMinutes: Int
    /// The length as a `Double`, for the edit screen's slider.
    public var lengthInMinutesAsDouble: Double {
        get { Double(lengthInMinutes) }
        set { lengthInMinutes = Int(newValue) }
    }
    public var history: [History] = []

    public init(id: UUID = UUID(), title: String, attendees: [String], lengthInMinutes: Int) {
        self.id = id
        self.title = title
        self.attendees = attendees.map { Attendee(name: $0) }
        self.lengthInMinutes = lengthInMinutes
    }
}

extension DailyScrum {
    /// Someone who attends a scrum.
    public struct Attendee: Identifiable, Codable, Equatable, Sendable {
        public let id: UUID
        public var name: String

        public init(id: UUID = UUID(), name: String) {
            self.id = id
            self.name = name
        }
    }

    /// What the new-scrum sheet starts from.
    public static var emptyScrum: DailyScrum { DailyScrum(title: "", attendees: [], lengthInMinutes: 5) }
}

extension DailyScrum {
    /// What the app shows when it cannot load its data.
    public static let sampleData: [DailyScrum] = [
        DailyScrum(title: "Design", attendees: ["Cathy", "Daisy", "Simon", "Jonathan"], lengthInMinutes: 10),
        DailyScrum(title: "App Dev", attendees: ["Katie", "Gray", "Euna", "Luis", "Darla"], lengthInMinutes: 5),
        DailyScrum(
            title: "Web Dev",
            attendees: ["Chella", "Chris", "Christina", "Eden", "Karla", "Lindsey", "Aga", "Chad", "Jenn", "Sarah"],
            lengthInMinutes: 5),
    ]
}
