#if canImport(SwiftUI)
import SwiftUI
#else
import RippleUI
#endif

/// Something that went wrong, shown in a sheet until the user closes it.
public struct Problem: Identifiable {
    public let id = UUID()
    /// What went wrong.
    public let headline: String
    /// What happens next.
    public let nextStep: String
}

/// The app: one store for the whole window, restored when the window first appears, persisted
/// whenever the scene goes inactive.
public struct GreenhouseApp: App {
    @StateObject private var store: PlantStore
    @State private var problem: Problem?
    /// What the shelf becomes when the problem sheet closes (`nil`: it stays as it is).
    @State private var shelfAfterProblem: [Plant]?

    public init() { self.init(store: PlantStore()) }

    /// The app over `store` (tests hand in one with storage in memory).
    public init(store: @autoclosure @escaping () -> PlantStore) {
        _store = StateObject(wrappedValue: store())
    }

    public var body: some Scene {
        WindowGroup {
            ShelfView(onInactive: persist)
                .environmentObject(store)
                .task { await restore() }
                .sheet(item: $problem, onDismiss: startOverIfAsked) { problem in
                    ProblemSheet(problem: problem)
                }
        }
    }

    private func restore() async {
        do {
            try await store.restore()
        } catch {
            shelfAfterProblem = Plant.starterShelf
            problem = Problem(headline: "The shelf could not be read", nextStep: "Starting over with three plants.")
        }
    }

    private func startOverIfAsked() {
        guard let shelf = shelfAfterProblem else { return }
        shelfAfterProblem = nil
        store.plants = shelf
    }

    private func persist() {
        Task {
            do {
                try await store.persist()
            } catch {
                problem = Problem(headline: "The shelf could not be saved", nextStep: "Your changes stay until you quit.")
            }
        }
    }
}
