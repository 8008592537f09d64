import Combine
import CombineSchedulers
import Foundation

/// A search model written the way combine-schedulers' README writes one: the scheduler is
/// injected, so the app passes the main queue and a test passes a `TestScheduler`.
public final class FeedModel: ObservableObject {
    @Published public var query = ""
    @Published public private(set) var results: [String] = []
    @Published public private(set) var ticks = 0

    private let catalog: [String]
    private var cancellables: Set<AnyCancellable> = []

    public init(catalog: [String], scheduler: AnySchedulerOf<DispatchQueue>) {
        self.catalog = catalog
        $query
            .dropFirst()
            .debounce(for: .milliseconds(300), scheduler: scheduler)
            .removeDuplicates()
            .map { [catalog] query in catalog.filter { $0.contains(query) } }
            .sink { [weak self] in self?.results = $0 }
            .store(in: &cancellables)
        Publishers.Timer(every: .seconds(1), scheduler: scheduler)
            .autoconnect()
            .sink { [weak self] _ in self?.ticks += 1 }
            .store(in: &cancellables)
    }
}
