#if canImport(SwiftUI)
import SwiftUI
#else
import RippleUI
#endif

/// The app: the scrums, loaded when it starts and saved when it becomes inactive; an error sheet
/// when either fails.
public struct ScrumdingerApp: App {
    @StateObject private var store: ScrumStore
    @State private var errorWrapper: ErrorWrapper?

    public init() { self.init(store: ScrumStore()) }

    /// The app with `store` (tests hand in one with a file in memory).
    public init(store: @autoclosure @escaping () -> ScrumStore) {
        _store = StateObject(wrappedValue: store())
    }

    public var body: some Scene {
        WindowGroup {
            ScrumsView(scrums: $store.scrums) {
                Task {
                    do {
                        try await store.save(scrums: store.scrums)
                    } catch {
                        errorWrapper = ErrorWrapper(error: error, guidance: "Try again later.")
                    }
                }
            }
            .task {
                do {
                    try await store.load()
                } catch {
                    errorWrapper = ErrorWrapper(
                        error: error, guidance: "Scrumdinger will load sample data and continue.")
                }
            }
            .sheet(item: $errorWrapper) {
                store.scrums = DailyScrum.sampleData
            } content: { wrapper in
                ErrorView(errorWrapper: wrapper)
            }
        }
    }
}
