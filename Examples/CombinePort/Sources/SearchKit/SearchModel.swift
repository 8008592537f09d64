#if canImport(Combine)
import Combine
#endif
import Foundation

/// A search box's model: results follow the query after a quiet period, on an injected scheduler.
public final class SearchModel<S: Scheduler>: ObservableObject {
    @Published public var query = ""
    @Published public private(set) var results: [String] = []
    private var cancellables = Set<AnyCancellable>()

    public init(catalog: [String], scheduler: S, quietPeriod: S.SchedulerTimeType.Stride) {
        $query
            .dropFirst()
            .debounce(for: quietPeriod, scheduler: scheduler)
            .removeDuplicates()
            .map { query in catalog.filter { $0.hasPrefix(query.lowercased()) } }
            .sink { [weak self] in self?.results = $0 }
            .store(in: &cancellables)
    }
}
