/// Depth-first exploration of every schedule of a world of simulated threads, for the checkers
/// that run Ripple's machines through every interleaving.
///
/// A world runs one schedule at a time: it takes `prefix`'s choices first (the index, among the
/// threads that can run at that step, of the one that runs) and the first runnable thread after,
/// and returns each step's choice and how many threads could run there. The explorer then replays
/// the world from scratch with the next untried choice at the deepest step that has one, until
/// none is left.
enum Interleavings {
    /// A contract violation, with the schedule that shows it.
    struct Violation: Error, CustomStringConvertible {
        var message: String
        var trace: [String]
        /// How many schedules passed before this one.
        var schedule = 0
        var description: String {
            "\(message) (schedule \(schedule + 1))\n  after: " + trace.joined(separator: "\n         ")
        }
    }

    /// One schedule's choices: at each step, the thread chosen and how many could run.
    typealias Branches = [(choice: Int, count: Int)]

    /// Runs schedules until every interleaving was run (returns how many) or one fails.
    static func explore(
        limit: Int = 2_000_000, _ runSchedule: (_ prefix: [Int]) -> Result<Branches, Violation>
    ) -> Result<Int, Violation> {
        var prefix: [Int] = []
        var schedules = 0
        while true {
            let branches: Branches
            switch runSchedule(prefix) {
            case .success(let taken): branches = taken
            case .failure(var violation):
                violation.schedule = schedules
                return .failure(violation)
            }
            schedules += 1
            if schedules >= limit { return .success(schedules) }
            guard let depth = branches.lastIndex(where: { $0.choice + 1 < $0.count }) else {
                return .success(schedules)
            }
            prefix = branches[..<depth].map(\.choice) + [branches[depth].choice + 1]
        }
    }
}

extension Interleavings {
    /// One atomic step: runnable when `ready` says so (a parked waiter, until it is woken).
    struct Step {
        var label: String
        var ready: () -> Bool = { true }
        var run: () -> Void
    }

    /// One simulated thread: its pending steps, innermost last.
    final class SimulatedThread {
        let index: Int
        /// How traces and reports name it.
        let name: String
        /// The identity a machine knows the thread by (never 0).
        var id: UInt { UInt(index + 1) }
        var pending: [Step] = []

        init(index: Int, name: String? = nil) {
            self.index = index
            self.name = name ?? "T\(index)"
        }
    }

    /// A checker's world for one schedule: its threads, the trace of the steps run so far, the
    /// thread running now, the first violation a step caused, and the checks at the end.
    protocol World: AnyObject {
        var threads: [SimulatedThread] { get }
        var trace: [String] { get set }
        var running: SimulatedThread! { get set }
        var violation: Violation? { get }
        /// Runs one step on `thread`; returns the violation it caused. By default: notes the thread,
        /// runs the step.
        func perform(_ step: Step, on thread: SimulatedThread) -> Violation?
        /// What must hold once every thread finished.
        func checkEnd() -> Violation?
    }
}

extension Interleavings.World {
    func fail(_ message: String) -> Interleavings.Violation {
        Interleavings.Violation(message: message, trace: trace)
    }

    func perform(_ step: Interleavings.Step, on thread: Interleavings.SimulatedThread) -> Interleavings.Violation? {
        running = thread
        step.run()
        return violation
    }

    /// Runs one schedule (see ``runSchedule(following:)``), then the end checks.
    func execute(following prefix: [Int]) -> Result<Interleavings.Branches, Interleavings.Violation> {
        runSchedule(following: prefix).flatMap { branches in
            checkEnd().map { .failure($0) } ?? .success(branches)
        }
    }

    /// Runs steps until no thread has any left, taking `prefix`'s choices first and the first
    /// runnable thread after; a thread left with steps none of which can run waits forever.
    /// Returns each step's choice and how many threads could run there.
    func runSchedule(following prefix: [Int]) -> Result<Interleavings.Branches, Interleavings.Violation> {
        var branches: Interleavings.Branches = []
        while true {
            let runnable = threads.filter { $0.pending.last?.ready() ?? false }
            if runnable.isEmpty {
                if let stuck = threads.first(where: { !$0.pending.isEmpty }) {
                    return .failure(fail("thread \(stuck.name) waits forever (\(stuck.pending.last!.label))"))
                }
                return .success(branches)
            }
            let choice = branches.count < prefix.count ? prefix[branches.count] : 0
            branches.append((choice, runnable.count))
            let thread = runnable[choice]
            let step = thread.pending.removeLast()
            trace.append("\(thread.name): \(step.label)")
            if let violation = perform(step, on: thread) { return .failure(violation) }
        }
    }
}
