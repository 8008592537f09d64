/// One runnable chapter of the Playground.
protocol Chapter: Sendable {
    var title: String { get }
    /// One or two sentences printed before the chapter runs.
    var summary: String { get }
    func run() async
}

/// Prints an indented line, so the chapter's own narration stands apart from stream output.
func show(_ line: String) {
    print("  " + line)
}
