import Foundation

/// A meeting of a scrum that has been held.
public struct History: Identifiable, Codable, Equatable, Sendable {
    public let id: UUID
    public let date: Date
    public var attendees: [DailyScrum.Attendee]

    public init(id: UUID = UUID(), date: Date = Date(), attendees: [DailyScrum.Attendee]) {
        self.id = id
        self.date = date
        self.attendees = attendees
    }
}
