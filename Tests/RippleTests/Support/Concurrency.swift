import Foundation

/// Runs `body(index)` on `threads` new threads at once and waits for all of them.
func runConcurrently(threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<threads {
        group.enter()
        Thread.detachNewThread {
            body(index)
            group.leave()
        }
    }
    group.wait()
}
