import Foundation

/// An error and what the user should do about it (what the error sheet shows).
public struct ErrorWrapper: Identifiable {
    public let id: UUID
    public let error: Error
    public let guidance: String

    public init(id: UUID = UUID(), error: Error, guidance: String) {
        self.id = id
        self.error = error
        self.guidance = guidance
    }
}
