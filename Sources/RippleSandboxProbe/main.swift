// The program the sandbox tests (Tests/RippleSandboxTests) run under seccomp filters that refuse
// membarrier(2) and the priority-inheritance futex operations: it links Ripple, and must keep
// working — exit 0 — whatever the system refuses, from its first instruction or from midway.
//
//     RippleSandboxProbe launch <filter> <mode>   installs the filter, then runs itself as <mode>
//     RippleSandboxProbe use                      a contended workload on Ripple's subjects
//     RippleSandboxProbe use-refusing-midway      the same, refusing on all threads while it runs
//     RippleSandboxProbe contend                  a lock contended for certain, then `use`
//     RippleSandboxProbe contend-mixed            a lock contended between a thread refused
//                                                 gettid and one allowed it (filter: none)
//     RippleSandboxProbe refuse-under-sleeper     refuses on all threads while threads sleep in
//                                                 FUTEX_LOCK_PI, then checks a later wait sleeps
//     RippleSandboxProbe idle                     links Ripple, never uses it
//     RippleSandboxProbe probe-membarrier         shows what the filter in force refuses
//
// Filters: refuse, refuse-barrier-command, kill, kill-pi-futex, refuse-gettid (CRippleSandbox.h
// says what each does); the environment (RIPPLE_LOCK) passes through `launch`. Threads are
// pthreads and nothing here uses Foundation or Dispatch, so what the filter meets is Ripple's.
#if os(Linux)
import CRippleSandbox
import Glibc
import Ripple
import Synchronization

/// The filters, by the name `launch` takes.
let filters: [String: RippleSandboxFilter] = [
    "refuse": RippleSandboxRefuse,
    "refuse-barrier-command": RippleSandboxRefuseBarrierCommand,
    "kill": RippleSandboxKill,
    "kill-pi-futex": RippleSandboxKillPriorityInheritance,
    "refuse-gettid": RippleSandboxRefuseThreadID,
]

/// Writes `line` to standard output at once (no buffer, so what was said survives a crash).
func say(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { bytes in _ = write(STDOUT_FILENO, bytes.baseAddress, bytes.count) }
}

/// A system call's result as the summary prints it: the number, or the errno's name.
func describe(_ result: Int) -> String {
    if result >= 0 { return "\(result)" }
    switch Int32(-result) {
    case EPERM: return "EPERM"
    case ENOSYS: return "ENOSYS"
    case EINVAL: return "EINVAL"
    default: return "errno \(-result)"
    }
}

/// Installs the filter named `name` on this (only) thread, then replaces the program with itself
/// running `mode`: the new program runs under the filter from its first instruction, loader and
/// library initializers included (no_new_privs keeps the filter across execve).
func launch(filter name: String, mode: String) -> Int32 {
    guard let filter = filters[name] else {
        say("launch: no filter named \(name)")
        return 64
    }
    let error = ripple_sandbox_install(filter, 0)
    guard error == 0 else {
        say("launch: installing \(name) failed: \(String(cString: strerror(error)))")
        return 1
    }
    let arguments: [UnsafeMutablePointer<CChar>?] = [strdup(CommandLine.arguments[0]), strdup(mode), nil]
    execv("/proc/self/exe", arguments)
    say("launch: execv failed: \(String(cString: strerror(errno)))")
    return 1
}

/// A number for the calling thread.
func currentThread() -> UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }

/// A closure run by `startThread` on its new thread.
final class ThreadBody {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

/// Starts `body` on a new pthread (no Foundation, no Dispatch: their locks are not Ripple's).
func startThread(_ body: @escaping @Sendable () -> Void) -> pthread_t {
    let context = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(&thread, nil, { context in
        Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue().body()
        return nil
    }, context)
    guard result == 0 else { fatalError("pthread_create failed: \(result)") }
    return thread
}

/// A sender's thread, recorded by the sender itself before its first send.
final class SenderSlot: Sendable {
    let thread = Atomic<UInt>(0)
}

/// What one subscriber received, counted from the delivering threads.
final class Tally: Sendable {
    let values = Atomic<Int>(0)
    let completions = Atomic<Int>(0)
    /// Values delivered on a thread other than their sender's.
    let wrongThread = Atomic<Int>(0)
    /// Deliveries that began while another delivery to this subscriber was running.
    let overlaps = Atomic<Int>(0)
    let busy = Atomic<Bool>(false)
    /// Keeps the work below from being optimized away.
    let checksum = Atomic<UInt64>(0)

    /// Counts `value` (whose sender is `value / Workload.senderStride`) and does a little work, so
    /// other senders meet this delivery and wait their turn.
    func receive(_ value: Int, senders: [SenderSlot]) {
        if busy.exchange(true, ordering: .acquiring) { overlaps.add(1, ordering: .relaxed) }
        if value >= 0, senders[value / Workload.senderStride].thread.load(ordering: .relaxed) != currentThread() {
            wrongThread.add(1, ordering: .relaxed)
        }
        var state = UInt64(truncatingIfNeeded: value) | 1
        for _ in 0..<8 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
        }
        checksum.wrappingAdd(state, ordering: .relaxed)
        // Now and then a long delivery, so the other senders must sleep until it ends.
        if value % 500 == 499 { usleep(200) }
        values.add(1, ordering: .relaxed)
        busy.store(false, ordering: .releasing)
    }
}

/// One pair of subjects and their sinks: a `PassthroughSubject` with a sink that stays, one that a
/// fifth thread cancels midway and one it subscribes midway; a `CurrentValueSubject` with two sinks.
final class Stage: Sendable {
    let passthrough = PassthroughSubject<Int, Never>()
    let currentValue = CurrentValueSubject<Int, Never>(-1)
    let full = Tally(), cancelled = Tally(), late = Tally(), current = (Tally(), Tally())
    /// Keeps the sinks that stay subscribed.
    let tokens: [AnyCancellable]
    let cancelledToken: AnyCancellable
    /// The late sink's token; set by the fifth thread, read after it is joined.
    nonisolated(unsafe) var lateToken: AnyCancellable?  // unsafe: the join orders the one write before the read
    /// The cancelled sink's count when its `cancel()` returned.
    let countAtCancel = Atomic<Int>(-1)

    init(senders: [SenderSlot]) {
        tokens = [Self.subscribe(full, to: passthrough, senders: senders),
                  Self.subscribe(current.0, to: currentValue, senders: senders),
                  Self.subscribe(current.1, to: currentValue, senders: senders)]
        cancelledToken = Self.subscribe(cancelled, to: passthrough, senders: senders)
    }

    /// A sink on `subject` that counts into `tally`.
    static func subscribe(_ tally: Tally, to subject: some Subject<Int, Never>, senders: [SenderSlot]) -> AnyCancellable {
        subject.sink(
            receiveCompletion: { _ in tally.completions.add(1, ordering: .relaxed) },
            receiveValue: { tally.receive($0, senders: senders) })
    }

    /// The fifth thread's part: subscribes the late sink and cancels the cancelled one.
    func churn(senders: [SenderSlot]) {
        lateToken = Self.subscribe(late, to: passthrough, senders: senders)
        cancelledToken.cancel()
        countAtCancel.store(cancelled.values.load(ordering: .relaxed), ordering: .relaxed)
    }

    /// What went wrong, given that every sender sent `perSender` values here and both completed.
    func failures(perSender: Int, label: String) -> [String] {
        let total = Workload.senderCount * perSender
        var failures: [String] = []
        func check(_ condition: Bool, _ message: @autoclosure () -> String) {
            if !condition { failures.append("\(label): " + message()) }
        }
        let sinks = [("PassthroughSubject's sink", full, total...total, 1),
                     ("PassthroughSubject's cancelled sink", cancelled, min(countAtCancel.load(ordering: .relaxed), total)...total, 0),
                     ("PassthroughSubject's late sink", late, 0...total, 1),
                     ("CurrentValueSubject's first sink", current.0, total + 1...total + 1, 1),
                     ("CurrentValueSubject's second sink", current.1, total + 1...total + 1, 1)]
        for (name, tally, expected, expectedCompletions) in sinks {
            let values = tally.values.load(ordering: .relaxed)
            check(expected.contains(values), "\(name) received \(values) values, not \(expected)")
            let completions = tally.completions.load(ordering: .relaxed)
            check(completions == expectedCompletions, "\(name) received \(completions) completions, not \(expectedCompletions)")
            let wrongThread = tally.wrongThread.load(ordering: .relaxed)
            check(wrongThread == 0, "\(name): \(wrongThread) values arrived on another thread than their sender's")
            let overlaps = tally.overlaps.load(ordering: .relaxed)
            check(overlaps == 0, "\(name): \(overlaps) deliveries began while another was running")
        }
        check(countAtCancel.load(ordering: .relaxed) >= 0 && lateToken != nil, "the fifth thread did not run")
        return failures
    }

    /// The counts, for the summary line.
    var counts: String {
        "PassthroughSubject sinks \(full.values.load(ordering: .relaxed)), "
            + "\(cancelled.values.load(ordering: .relaxed)) (cancelled), \(late.values.load(ordering: .relaxed)) (late); "
            + "CurrentValueSubject sinks \(current.0.values.load(ordering: .relaxed)), \(current.1.values.load(ordering: .relaxed))"
    }
}

/// Four threads each sending half their values into one `Stage` and half into a second, while a
/// fifth thread subscribes and cancels sinks in the middle of each; then all four subjects complete.
/// Every value is checked to arrive once per sink, on its sender's thread, with no two deliveries
/// to a sink at once. The second stage's locks and delivery turns are first contended in the second
/// half, so with `use-refusing-midway` (the filter comes a quarter of the way in) they are contended
/// only under the filter.
enum Workload {
    static let senderCount = 4
    /// A value is `sender * senderStride + sequence`.
    static let senderStride = 1_000_000

    /// Runs the workload; with `refusingMidway`, sender 0 installs the `refuse` filter on every
    /// thread of the process after a quarter of its sends. Returns the exit status.
    static func run(refusingMidway: Bool, name: String) -> Int32 {
        // A tenth of the work under sanitizers, which run it ten times slower (found at run time:
        // their runtimes define `__tsan_init` / `__asan_init`).
        let sanitized = getenv("RIPPLE_SANITIZED") != nil || dlsym(nil, "__tsan_init") != nil
            || dlsym(nil, "__asan_init") != nil
        let perSender = sanitized ? 1_000 : 10_000
        let perStage = perSender / 2
        let senders = (0..<senderCount).map { _ in SenderSlot() }
        let stages = [Stage(senders: senders), Stage(senders: senders)]
        let senderZeroProgress = Atomic<Int>(0)
        let installResult = Atomic<Int32>(-1)
        // Under ThreadSanitizer the Swift runtime takes a lock of its own at every generic metadata
        // lookup (its `swift::once` always enters the slow path there, so that the sanitizer sees
        // the ordering), and that lock is a priority-inheriting futex with no fallback: a thread
        // asleep in FUTEX_LOCK_PI on it when the filter arrives is never woken (its holder's
        // FUTEX_UNLOCK_PI is refused for good, and the holder retries it for ever). So there the
        // threads meet first, out of Ripple and the runtime's locks, and go on after the install.
        let meetForTheFilter = refusingMidway && dlsym(nil, "__tsan_init") != nil
        let arrived = Atomic<Int>(0)
        let filterInstalled = Atomic<Bool>(false)

        var threads = (0..<senderCount).map { sender in
            startThread {
                senders[sender].thread.store(currentThread(), ordering: .relaxed)
                for sequence in 0..<perSender {
                    if meetForTheFilter, sequence == perSender / 4 {
                        arrived.add(1, ordering: .acquiringAndReleasing)
                        if sender != 0 {
                            while !filterInstalled.load(ordering: .acquiring) { usleep(100) }
                        } else {
                            while arrived.load(ordering: .acquiring) < senderCount { usleep(100) }
                        }
                    }
                    if refusingMidway, sender == 0, sequence == perSender / 4 {
                        installResult.store(ripple_sandbox_install(RippleSandboxRefuse, 1), ordering: .relaxed)
                        filterInstalled.store(true, ordering: .releasing)
                    }
                    let stage = stages[sequence / perStage]
                    stage.passthrough.send(sender * senderStride + sequence)
                    stage.currentValue.send(sender * senderStride + sequence)
                    if sender == 0 { senderZeroProgress.store(sequence + 1, ordering: .releasing) }
                }
            }
        }
        threads.append(startThread {
            for (index, stage) in stages.enumerated() {
                while senderZeroProgress.load(ordering: .acquiring) < index * perStage + perStage / 2
                    || (meetForTheFilter && !filterInstalled.load(ordering: .acquiring))
                {
                    usleep(50)
                }
                stage.churn(senders: senders)
            }
        })
        for thread in threads { pthread_join(thread, nil) }
        for stage in stages {
            stage.passthrough.send(completion: .finished)
            stage.currentValue.send(completion: .finished)
        }

        var failures = stages.enumerated().flatMap { index, stage in
            stage.failures(perSender: perStage, label: "stage \(index + 1)")
        }
        var refusal = ""
        if refusingMidway {
            let result = installResult.load(ordering: .relaxed)
            if result != 0 {
                failures.append("installing the refuse filter midway failed: \(String(cString: strerror(result)))")
            }
            refusal = "; refuse filter installed on all threads before sender 0's send \(perSender / 4 + 1)"
        }
        // The filter in force, seen from this thread (for `refuse`: EPERM, so it really refused).
        let query = describe(ripple_sandbox_membarrier(RippleSandboxBarrierQuery))
        guard failures.isEmpty else {
            say("\(name): FAILED: " + failures.joined(separator: "; "))
            return 1
        }
        say("\(name): ok: \(senderCount) senders × \(perSender) values, half to each stage; stage 1: "
            + "\(stages[0].counts); stage 2: \(stages[1].counts)\(refusal); membarrier(QUERY) now: \(query)")
        return 0
    }
}

/// A Ripple lock shared by threads.
final class SharedLock: @unchecked Sendable {
    let lock = Lock()
    /// Guarded by `lock`.
    var count = 0
}

/// Contention for certain: one thread takes `shared`'s lock and holds it 50 ms while another, told
/// it is held, takes it too (so it must wait in the kernel), `rounds` times, each thread holding
/// in turn. `refuseGettidOnSecond`: the second thread first refuses itself gettid (a filter on it
/// alone), so a thread with a synthetic owner ID and one with its real ID share the lock.
/// Returns what went wrong, if anything.
func contend(rounds: Int, refuseGettidOnSecond: Bool) -> String? {
    let shared = SharedLock()
    let turn = Atomic<Int>(0)  // round * 2 + who holds; each waits its number
    let held = Atomic<Int>(-1)
    let installed = Atomic<Int32>(0)
    func side(_ me: Int) -> @Sendable () -> Void {
        {
            if me == 1, refuseGettidOnSecond {
                installed.store(ripple_sandbox_install(RippleSandboxRefuseThreadID, 0), ordering: .relaxed)
            }
            for round in 0..<rounds {
                let holder = round % 2
                if holder == me {
                    shared.lock.lock()
                    held.store(round, ordering: .releasing)
                    usleep(50_000)
                    shared.count += 1
                    shared.lock.unlock()
                } else {
                    while held.load(ordering: .acquiring) < round { usleep(100) }
                    shared.lock.lock()
                    shared.count += 1
                    shared.lock.unlock()
                }
                // Both done with this round before the next begins.
                turn.add(1, ordering: .acquiringAndReleasing)
                while turn.load(ordering: .acquiring) < 2 * (round + 1) { usleep(100) }
            }
        }
    }
    let threads = [startThread(side(0)), startThread(side(1))]
    for thread in threads { pthread_join(thread, nil) }
    if installed.load(ordering: .relaxed) != 0 {
        return "installing refuse-gettid on the second thread failed: \(String(cString: strerror(installed.load(ordering: .relaxed))))"
    }
    shared.lock.lock()
    let count = shared.count
    shared.lock.unlock()
    return count == 2 * rounds ? nil : "the lock's count is \(count), not \(2 * rounds)"
}

/// How many times the calling thread has blocked in the kernel so far (its voluntary context
/// switches: a sleep on a futex is one; a `sched_yield` never is, the thread stays runnable).
func threadBlockings() -> Int {
    var usage = rusage()
    // RUSAGE_THREAD (1): Glibc's Swift module does not export the name.
    getrusage(__rusage_who_t(1), &usage)
    return usage.ru_nvcsw
}

/// The move to plain futexes with a thread asleep in `FUTEX_LOCK_PI`, made to happen: the main
/// thread holds a lock while other threads sleep on it in the kernel (priority-inheriting, as
/// the process has refused nothing yet), installs the `refuse` filter on every thread, and unlocks.
/// `FUTEX_UNLOCK_PI` is refused, so the unlock frees the word with a plain store and a
/// `FUTEX_WAKE` — which the kernel answers with `EINVAL` while a priority-inheriting sleeper is
/// still queued on the word (its bounded sleep ends by itself). That answer is not a refusal to
/// sleep: afterwards, a thread waiting 300 ms for a held lock must still sleep in the kernel, not
/// spin through `sched_yield` (which it would if the process had moved to yielding for good).
/// Returns what went wrong, if anything, and how many times the waiter blocked in the kernel.
func refuseUnderSleeper() -> (failure: String?, waiterBlockings: Int) {
    let shared = SharedLock()
    shared.lock.lock()
    // Four sleepers, each in FUTEX_LOCK_PI in 20 ms slices: at the unlock, one is almost surely
    // queued in the kernel.
    let sleepers = (0..<4).map { _ in
        startThread {
            shared.lock.lock()
            shared.count += 1
            shared.lock.unlock()
        }
    }
    // Long enough for the sleepers to spin and go to sleep.
    usleep(100_000)
    let installed = ripple_sandbox_install(RippleSandboxRefuse, 1)
    shared.lock.unlock()
    for sleeper in sleepers { pthread_join(sleeper, nil) }
    if installed != 0 {
        return ("installing the refuse filter failed: \(String(cString: strerror(installed)))", 0)
    }
    let spent = Atomic<Int>(-1)
    shared.lock.lock()
    let waiter = startThread {
        let start = threadBlockings()
        shared.lock.lock()
        spent.store(threadBlockings() - start, ordering: .relaxed)
        shared.count += 1
        shared.lock.unlock()
    }
    usleep(300_000)
    shared.count += 1
    shared.lock.unlock()
    pthread_join(waiter, nil)
    let blockings = spent.load(ordering: .relaxed)
    shared.lock.lock()
    let count = shared.count
    shared.lock.unlock()
    if count != 6 { return ("the lock's count is \(count), not 6", blockings) }
    // Sleeping, the waiter blocks about 15 times in 300 ms (20 ms sleeps), however loaded the
    // host; yielding, it never blocks (processor time is no measure: on a loaded host a yielding
    // thread gets little of it).
    if blockings < 5 {
        return ("waiting 300 ms for a held lock, the waiter blocked in the kernel \(blockings) times: the process stopped sleeping there", blockings)
    }
    return (nil, blockings)
}

/// Runs the mode the arguments name; returns the exit status.
func run(_ arguments: [String]) -> Int32 {
    switch arguments.first {
    case "launch" where arguments.count == 3:
        return launch(filter: arguments[1], mode: arguments[2])
    case "use":
        return Workload.run(refusingMidway: false, name: "use")
    case "use-refusing-midway":
        return Workload.run(refusingMidway: true, name: "use-refusing-midway")
    case "contend":
        if let failure = contend(rounds: 4, refuseGettidOnSecond: false) {
            say("contend: FAILED: \(failure)")
            return 1
        }
        say("contend: lock ok: 2 threads × 4 contended rounds; gettid: \(describe(ripple_sandbox_gettid()))")
        return Workload.run(refusingMidway: false, name: "contend")
    case "contend-mixed":
        if let failure = contend(rounds: 6, refuseGettidOnSecond: true) {
            say("contend-mixed: FAILED: \(failure)")
            return 1
        }
        say("contend-mixed: ok: 2 threads × 6 contended rounds, the second refused gettid")
        return 0
    case "refuse-under-sleeper":
        let (failure, blockings) = refuseUnderSleeper()
        if let failure {
            say("refuse-under-sleeper: FAILED: \(failure)")
            return 1
        }
        say("refuse-under-sleeper: ok: a 300 ms wait after the move blocked in the kernel \(blockings) times; "
            + "membarrier(QUERY) now: \(describe(ripple_sandbox_membarrier(RippleSandboxBarrierQuery)))")
        return 0
    case "idle":
        // Links Ripple without running any of it: there are never this many arguments.
        if CommandLine.arguments.count > 1000 { PassthroughSubject<Int, Never>().send(1) }
        say("idle: ok")
        return 0
    case "probe-membarrier":
        let query = describe(ripple_sandbox_membarrier(RippleSandboxBarrierQuery))
        let register = describe(ripple_sandbox_membarrier(RippleSandboxBarrierRegisterPrivateExpedited))
        let expedited = describe(ripple_sandbox_membarrier(RippleSandboxBarrierPrivateExpedited))
        let trylockPI = describe(Int(ripple_sandbox_futex_trylock_pi()))
        let gettid = ripple_sandbox_gettid() > 0 ? "ok" : describe(ripple_sandbox_gettid())
        say("probe-membarrier: query=\(query) register=\(register) expedited=\(expedited) trylock-pi=\(trylockPI) gettid=\(gettid)")
        return 0
    default:
        say("usage: RippleSandboxProbe launch <refuse|refuse-barrier-command|kill|kill-pi-futex|refuse-gettid> "
            + "<mode> | use | use-refusing-midway | contend | contend-mixed | refuse-under-sleeper | idle | probe-membarrier")
        return 64
    }
}

exit(run(Array(CommandLine.arguments.dropFirst())))
#else
print("RippleSandboxProbe runs on Linux only")
#endif
