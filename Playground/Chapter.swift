/// One runnable chapter of the Playground.
protocol Chapter: Sendable {
    var title: String { get }
    /// One or two sentences printed before the chapter runs.
    var summary: String { get }
    func run() async throws
}

/// Prints an indented line, so the chapter's own narration stands apart from stream output.
func show(_ line: String) {
    print("  " + line)
}

import Dispatch

/// A list of names a `@Sendable` callback can append to.
final class NameLog: @unchecked Sendable {
    private let lock = DispatchSemaphore(value: 1)
    private var names: [String] = []

    func append(_ name: String) {
        lock.wait()
        names.append(name)
        lock.signal()
    }

    func take() -> [String] {
        lock.wait()
        defer { lock.signal() }
        let taken = names
        names = []
        return taken
    }
}
