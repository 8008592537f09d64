#if canImport(Glibc)
import Glibc
#endif
@testable import RippleCore

// The scripts of the atomics mode (AtomicExplorer.swift): the real lock word with the kernel's
// futexes modelled, the turn waiter's signal and the deadlock check's read of a turn's owner,
// AnyCancellable's and TrackingObserver's one-shot claims, the layout cache's lock-free table.
// Each is explored exhaustively.

/// What one execution of an atomics script saw, written only by the running thread.
final class AtomicLog: @unchecked Sendable {
    var violations: [String] = []
    /// How many threads passed through the critical section (or the turn). The section has no
    /// scheduling point of its own (a script's `point()` commutes with no step, which would
    /// multiply the executions), so another thread can only run while the holder is inside
    /// `lock()` or `unlock()`: mutual exclusion is checked as "on entry the lock's word (or the
    /// turn's owner) names the entering thread" — a second thread let in while the first still
    /// holds is let in on a word that names the first, or takes the word from it, and then the
    /// first one's unlock traps ("released by a thread that does not hold it").
    var passes = 0
    /// Calls of a cancel action or an observer's closure.
    var calls = 0

    func enter(ownerOK: Bool) {
        if !ownerOK { violations.append("a thread got in while the lock (or turn) names another owner") }
        passes += 1
    }
}

/// A lock and what it guards.
final class LockedCounter: @unchecked Sendable {
    let lock = Lock()
}

/// A delivery turn under a lock, as every turn's owner keeps one.
final class TurnOwner: @unchecked Sendable {
    let lock = Lock()
    var turn = DeliveryTurn()
}

/// Two classes with `@Published` fields, for the layout cache (each script uses its own pair, so
/// each execution's first access is a first access: the cache is emptied between executions).
final class LayoutModelA: ObservableObject, @unchecked Sendable {
    @Published var a = 0
}

final class LayoutModelB: ObservableObject, @unchecked Sendable {
    @Published var b = 0
    @Published var c = ""
}

func atomicScripts() -> [Script] {
    func lockScript(_ name: String, threads: Int, rounds: [Int], mode: LockKernel.Mode, sleptWithPI: Bool, interruptions: Int) -> Script {
        Script(name: "atomics: \(name)") { explorer in
            explorer.startAtomics(threads: threads, interruptions: interruptions)
            LockKernel.force(mode)
            LockKernel.forgetSleepWithPriorityInheritance()
            if sleptWithPI { LockKernel.noteSleepWithPriorityInheritance() }
            let log = AtomicLog()
            let counter = LockedCounter()
            let bodies: [@Sendable () -> Void] = (0..<threads).map { index in
                {
                    for _ in 0..<rounds[index] {
                        counter.lock.lock()
                        // Read without a scheduling point (the explorer runs one thread at a time).
                        log.enter(ownerOK: counter.lock.word.address.pointee & Lock.ownerMask == kernelThreadID())
                        counter.lock.unlock()
                    }
                }
            }
            return (
                bodies,
                {
                    if let first = explorer.kernel.violation ?? log.violations.first { return first }
                    let total = rounds.prefix(threads).reduce(0, +)
                    if log.passes != total { return "\(log.passes) passes through the lock, \(total) expected" }
                    let word = counter.lock.word.load(ordering: .relaxed)
                    if word != 0 { return "the lock's word is \(String(word, radix: 16)) after every thread unlocked" }
                    if explorer.sleepersLeft != 0 { return "threads left asleep on a futex" }
                    if LockKernel.mode != mode { return "the lock left the \(mode) mode for \(LockKernel.mode) (a refusal the kernel did not make)" }
                    return nil
                }
            )
        }
    }

    func turnScript(_ name: String, threads: Int, interruptions: Int) -> Script {
        Script(name: "atomics: \(name)") { explorer in
            // The explorer's lock stands in for the turn owner's and the deadlock check's locks
            // (the real lock has its scripts above): the waiter's signal, its futex and the
            // owner the deadlock check reads are the real code.
            explorer.startAtomics(threads: threads, interruptions: interruptions, realLocks: false)
            LockKernel.force(.priorityInheriting)
            let log = AtomicLog()
            let owner = TurnOwner()
            let bodies: [@Sendable () -> Void] = (0..<threads).map { _ in
                {
                    owner.lock.lock()
                    let entry = owner.turn.enter(currentThreadID(), name: "script")
                    owner.lock.unlock()
                    if case .wait(let waiter) = entry { waiter.waitForTurn() }
                    log.enter(ownerOK: owner.turn.owner == currentThreadID())
                    owner.lock.lock()
                    let exit = owner.turn.leave()
                    owner.lock.unlock()
                    if case .handOff(let next) = exit { next.wake() }
                }
            }
            return (
                bodies,
                {
                    if let first = log.violations.first { return first }
                    if log.passes != threads { return "\(log.passes) turns taken, \(threads) expected" }
                    if owner.turn.isHeld { return "the turn is still held after every thread left it" }
                    if let queue = owner.turn.queue, queue.owner.load(ordering: .relaxed) != 0 {
                        return "the turn's mirrored owner is not 0 after every thread left it"
                    }
                    if explorer.sleepersLeft != 0 { return "threads left asleep on a futex" }
                    return nil
                }
            )
        }
    }

    // Three threads on one lock: exhaustive too, but minutes each (157,729 executions for the
    // priority-inheriting one), so only with EXPLORER_LONG=1 (Documentation/Engine.md).
    let long: [Script] = getenv("EXPLORER_LONG") == nil ? [] : [
        lockScript("a lock, three threads (priority-inheriting futexes)", threads: 3, rounds: [1, 1, 1], mode: .priorityInheriting, sleptWithPI: false, interruptions: 0),
        lockScript("a lock, three threads (plain futexes)", threads: 3, rounds: [1, 1, 1], mode: .plain, sleptWithPI: false, interruptions: 0),
        lockScript("a lock, three threads (plain futexes after a priority-inheriting sleep: unlocks try FUTEX_UNLOCK_PI first)", threads: 3, rounds: [1, 1, 1], mode: .plain, sleptWithPI: true, interruptions: 0),
    ]
    return long + [
        lockScript("a lock, two threads (priority-inheriting futexes)", threads: 2, rounds: [1, 1], mode: .priorityInheriting, sleptWithPI: false, interruptions: 0),
        lockScript("a lock, two threads, a sleep may time out (priority-inheriting)", threads: 2, rounds: [1, 1], mode: .priorityInheriting, sleptWithPI: false, interruptions: 1),
        lockScript("a lock, two threads (plain futexes)", threads: 2, rounds: [1, 1], mode: .plain, sleptWithPI: false, interruptions: 0),
        lockScript("a lock, two threads, a sleep may end spuriously (plain)", threads: 2, rounds: [1, 1], mode: .plain, sleptWithPI: false, interruptions: 1),
        lockScript("a lock, two threads (plain futexes after a priority-inheriting sleep: unlocks try FUTEX_UNLOCK_PI first)", threads: 2, rounds: [1, 1], mode: .plain, sleptWithPI: true, interruptions: 0),
        lockScript("a lock, two threads, one locks twice (priority-inheriting)", threads: 2, rounds: [2, 1], mode: .priorityInheriting, sleptWithPI: false, interruptions: 0),
        lockScript("a lock, two threads, one locks twice (plain)", threads: 2, rounds: [2, 1], mode: .plain, sleptWithPI: false, interruptions: 0),
        turnScript("a delivery turn, two threads (the waiter's park racing the hand-over's wake)", threads: 2, interruptions: 0),
        Script(name: "atomics: AnyCancellable cancelled from two threads") { explorer in
            explorer.startAtomics(threads: 2, realLocks: false)
            let log = AtomicLog()
            let cancellable = AnyCancellable {
                log.calls += 1
                explorer.point()
            }
            return (
                [{ cancellable.cancel() }, { cancellable.cancel() }],
                {
                    if let first = explorer.kernel.violation { return first }
                    return log.calls == 1 ? nil : "the cancel action ran \(log.calls) times"
                }
            )
        },
        Script(name: "atomics: AnyCancellable cancelled on one thread while another releases it (the deinit cancels)") { explorer in
            explorer.startAtomics(threads: 2, realLocks: false)
            let log = AtomicLog()
            final class Holders: @unchecked Sendable {
                var first: AnyCancellable?
                var second: AnyCancellable?
            }
            let holders = Holders()
            holders.first = AnyCancellable {
                log.calls += 1
                explorer.point()
            }
            holders.second = holders.first
            return (
                [
                    {
                        holders.first?.cancel()
                        holders.first = nil
                    },
                    { holders.second = nil },
                ],
                {
                    if let first = explorer.kernel.violation { return first }
                    return log.calls == 1 ? nil : "the cancel action ran \(log.calls) times"
                }
            )
        },
        Script(name: "atomics: withTracking's one-shot observer, two threads writing the properties it read") { explorer in
            explorer.startAtomics(threads: 2)
            let log = AtomicLog()
            let model = LayoutModelB()
            trackOnce({
                _ = model.b
                _ = model.c
            }, phase: .didSet) { _ in
                log.calls += 1
            }
            return (
                [{ model.b = 1 }, { model.c = "x" }],
                {
                    if let first = explorer.kernel.violation { return first }
                    return log.calls == 1 ? nil : "the one-shot observer was called \(log.calls) times"
                }
            )
        },
        Script(name: "atomics: track's observer cancelled while another thread writes") { explorer in
            explorer.startAtomics(threads: 2, realLocks: false)
            let log = AtomicLog()
            let model = LayoutModelA()
            let token = trackContinuously({
                _ = model.a
            }, phase: .didSet) { _ in
                log.calls += 1
            }
            return (
                [
                    { model.a = 1 },
                    { token.cancel() },
                ],
                {
                    if let first = explorer.kernel.violation { return first }
                    if log.calls > 1 { return "the observer was called \(log.calls) times for 1 write" }
                    return nil
                }
            )
        },
        Script(name: "atomics: the layout cache, two threads first-accessing different classes") { explorer in
            explorer.startAtomics(threads: 2, realLocks: false)
            LayoutCache.forgetEverything()
            let a = LayoutModelA()
            let b = LayoutModelB()
            final class Found: @unchecked Sendable {
                var a: [Int]?
                var b: [Int]?
            }
            let found = Found()
            return (
                [
                    { found.a = LayoutCache.layout(of: a).publishedOffsets },
                    { found.b = LayoutCache.layout(of: b).publishedOffsets },
                ],
                {
                    if found.a?.count != 1 || found.b?.count != 2 { return "a layout is wrong: \(found.a ?? []), \(found.b ?? [])" }
                    if LayoutCache.cached(a) == nil { return "the first class's layout was lost from the table" }
                    if LayoutCache.cached(b) == nil { return "the second class's layout was lost from the table" }
                    return nil
                }
            )
        },
        Script(name: "atomics: the layout cache, two threads first-accessing one class") { explorer in
            explorer.startAtomics(threads: 2, realLocks: false)
            LayoutCache.forgetEverything()
            let first = LayoutModelB()
            let second = LayoutModelB()
            return (
                [
                    { _ = LayoutCache.layout(of: first) },
                    { _ = LayoutCache.layout(of: second) },
                ],
                {
                    let tables = LayoutCache.tablesPublished
                    if tables != 1 { return "\(tables) tables published for one class (the double check under the lock missed)" }
                    return LayoutCache.cached(first) == nil ? "the class's layout is not in the table" : nil
                }
            )
        },
    ]
}
