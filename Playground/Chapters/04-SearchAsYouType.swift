import Dispatch
import Ripple

/// Chapter 4: search-as-you-type — debounce, removeDuplicates and switchToLatest over a callback
/// API, on a real scheduler (a serial dispatch queue standing in for the main queue).
struct SearchAsYouTypeChapter: Chapter {
    let title = "Search as you type"
    let summary = """
        Keystrokes arrive fast; a search service answers through a completion handler, slowly for short
        queries. debounce waits for a pause in typing, removeDuplicates skips a query already asked,
        and switchToLatest keeps only the newest search's answer (flatMap shows the stale one too).
        """

    func run() async {
        await search(switching: true)
        print("")
        await search(switching: false)
    }

    private func search(switching: Bool) async {
        show(switching ? "Example 4.1: with switchToLatest" : "Example 4.2: with flatMap instead (for contrast)")
        let ui = DispatchQueue(label: "ripple.playground.ui")
        let service = FakeSearchService()
        let keystrokes = PassthroughSubject<String, Never>()
        let done = Signal()
        let lines = NameLog()

        let queries = keystrokes
            .debounce(for: .milliseconds(120), scheduler: ui)
            .removeDuplicates()
            .filter { !$0.isEmpty }
            .handleEvents(receiveOutput: { lines.append("search sent: \"\($0)\"") })
        // One publisher per query: Deferred makes the request go out when subscribed.
        let searches = queries.map { query in
            Deferred { Future<[String], Never> { promise in service.search(query) { promise(.success($0)) } } }
        }
        let results: AnyPublisher<[String], Never> =
            switching
            ? searches.switchToLatest().eraseToAnyPublisher()
            : searches.flatMap { $0 }.eraseToAnyPublisher()

        let cancellable = results
            .receive(on: ui)
            .sink(
                receiveCompletion: { _ in done.fire() },
                receiveValue: { lines.append("results: \($0.joined(separator: ", "))") })

        // The user types "sw", pauses, types "swift", pauses, retypes the last letter (same query),
        // and leaves. Short queries are slow to answer (300 ms), long ones fast (40 ms).
        await type(["s", "sw"], into: keystrokes, thenPause: 180)
        await type(["swi", "swif", "swift"], into: keystrokes, thenPause: 180)
        await type(["swif", "swift"], into: keystrokes, thenPause: 450)
        keystrokes.send(completion: .finished)
        await done.wait()
        cancellable.cancel()
        for line in lines.take() { show("  " + line) }
        show(
            switching
                ? "  (\"sw\" answered last, but its search had been cancelled: only the newest answer shows)"
                : "  (the stale answer for \"sw\" arrives after the one for \"swift\" and would overwrite it)")
    }

    private func type(_ texts: [String], into keystrokes: PassthroughSubject<String, Never>, thenPause pause: Int) async {
        for text in texts {
            keystrokes.send(text)
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        try? await Task.sleep(nanoseconds: UInt64(pause) * 1_000_000)
    }
}

/// A search API with a completion handler, answering on its own queue.
final class FakeSearchService: Sendable {
    private let queue = DispatchQueue(label: "ripple.playground.search", attributes: .concurrent)
    private let catalog = ["swift", "swiftui", "swim", "sweater", "switch", "ripple"]

    func search(_ query: String, completion: @escaping @Sendable ([String]) -> Void) {
        let matches = catalog.filter { $0.hasPrefix(query) }
        let latency = query.count < 3 ? 300 : 40
        queue.asyncAfter(deadline: .now() + .milliseconds(latency)) { completion(matches) }
    }
}
