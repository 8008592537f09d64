#if canImport(Glibc)
import Glibc
#endif
import RippleCore

/// One thread asleep in the kernel model on a futex word.
final class FutexSleeper {
    let index: Int
    /// The sleeper's thread ID (what a priority-inheriting hand-over writes into the word).
    let tid: UInt32
    /// Asleep in `FUTEX_LOCK_PI` (a priority-inheriting waiter), not `FUTEX_WAIT`.
    let priorityInheriting: Bool
    init(index: Int, tid: UInt32, priorityInheriting: Bool) {
        self.index = index
        self.tid = tid
        self.priorityInheriting = priorityInheriting
    }
}

/// The explorer's model of the kernel's futexes, for the atomics mode: one queue of sleepers per
/// word's address, in arrival order (the kernel orders a futex's sleepers by priority, then by
/// arrival; every thread here has the same priority), holding plain and priority-inheriting
/// sleepers alike, as the kernel's hash bucket does — so a call of the wrong kind finds them and
/// fails as the kernel's does (`EINVAL`).
struct KernelModel {
    var queues: [UInt: [FutexSleeper]] = [:]
    /// How many more sleeps may end without a wake (a timeout or a signal, `ETIMEDOUT` / `EINTR`)
    /// in this execution: each sleep while this is positive is a choice of the schedule.
    var interruptions = 0
    /// Objects whose one-shot claim was won, and the first claim won twice.
    var claims: Set<ObjectIdentifier> = []
    var violation: String?
    /// Per waiting thread: its next step if it is an atomic operation (the word, whether it writes).
    var pending: [Int: (word: UInt, writes: Bool)] = [:]
    /// The threads asleep (sleep sets: see `Explorer.chosenLocked`).
    var sleeping: Set<Int> = []
    /// Scheduling points so far; an execution longer than `stepLimit` is a livelock.
    var steps = 0
    static let stepLimit = 5_000

    static let waitersBit: UInt32 = 0x8000_0000
    static let ownerMask: UInt32 = 0x3FFF_FFFF
    static let firstSyntheticOwner: UInt32 = 0x0040_0000
}

/// The atomics mode of the explorer (Documentation/Engine.md, "Atomics outside locks"): the real
/// `Lock` and `TurnWaiter` run (the lock and park hooks answer `false`); every `AtomicCell`
/// operation of a thread the explorer runs is a scheduling point; the futex calls are answered by
/// `kernel`, with the semantics the kernel documents (futex(2)):
///
/// - `FUTEX_WAIT` reads the word atomically with queueing the caller: a word other than `expected`
///   returns `EAGAIN` at once; otherwise the caller sleeps until a `FUTEX_WAKE` picks it (or, while
///   `interruptions` lasts, returns `ETIMEDOUT`/`EINTR` without one: a choice).
/// - `FUTEX_WAKE` wakes up to `count` plain sleepers, first come first; a priority-inheriting
///   sleeper met on the way makes it stop with `EINVAL`, as the kernel's does.
/// - `FUTEX_LOCK_PI`: a word without an owner becomes the caller's ID (`EINVAL` if sleepers are
///   queued on it: the kernel's "inconsistent" state); the caller's own ID is `EDEADLK`; a
///   synthetic ID (no such thread) is `ESRCH`; otherwise the kernel sets `FUTEX_WAITERS` in the
///   word and the caller sleeps until an unlock hands it the word (or, while `interruptions`
///   lasts, returns `ETIMEDOUT`, leaving the bit set). A plain sleeper first in line: `EINVAL`.
/// - `FUTEX_UNLOCK_PI` by a thread that is not the word's owner: `EPERM`. With a
///   priority-inheriting sleeper first in line, the word becomes `FUTEX_WAITERS | its ID` (the
///   kernel keeps the bit while a priority-inheritance state exists) and it wakes owning the lock;
///   with a plain sleeper first in line, `EINVAL`; with none, the word becomes 0.
///
/// A sleep that no wake ends leaves its thread parked: the execution is stuck, which the explorer
/// reports — also for the bounded sleeps the code uses (20 ms), since a sleep that only its timeout
/// ends is a lost wake (the code survives one with a delay; the checks say it never happens).
/// Sequential consistency: one thread runs at a time, and each atomic operation is one step.
extension Explorer {
    /// Starts the atomics mode for an execution of `threads` threads (a script's `make`). A
    /// thread's first step, from its start to its first scheduling point, runs only the script's
    /// own code before it touches anything shared: it commutes with every step (declared as a
    /// load of a word no one writes).
    func startAtomics(threads: Int, interruptions: Int = 0, realLocks: Bool = true) {
        atomics = true
        self.realLocks = realLocks
        kernel.interruptions = interruptions
        for index in 0..<threads { kernel.pending[index] = (0, false) }
    }

    /// `AtomicCell`'s scheduling point: the thread's next step is the operation on `word`.
    func atomicOperation(_ word: UnsafeRawPointer, writes: Bool) {
        guard atomics else { return }
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        guard let index = me() else { return }
        kernel.pending[index] = (UInt(bitPattern: word), writes)
        pointLocked(index)
    }

    // MARK: Sleep sets
    //
    // At a scheduling point the explorer knows each waiting thread's next step: an atomic
    // operation on a word (a load, or a write: a store or read-modify-write, a failed
    // compare-and-swap counted as a write), or anything else (a futex call, a thread's start or
    // end, a script's point: dependent on every step). Two atomic steps commute unless they are on
    // one word and one writes. Having explored thread t's step first from a state, the explorer
    // need not run a sibling's step u and then t when they commute (the same state, reached in
    // another order): t "sleeps" in the sibling's subtree until a step dependent on it runs
    // (Godefroid's sleep sets). Every interleaving is still covered up to the order of commuting
    // steps — for code whose plain memory accesses are free of data races (what ThreadSanitizer
    // checks): a plain access between two atomic steps is then ordered by them.

    /// The runnable threads not asleep (if all are, the first runnable: the execution is run to its
    /// end without further choices — it repeats an explored one up to commuting steps).
    func awakeLocked(_ runnable: [Int]) -> [Int] {
        let awake = runnable.filter { !kernel.sleeping.contains($0) }
        return awake.isEmpty ? [runnable[0]] : awake
    }

    /// `candidates[choice]` runs next: the siblings explored before it go to sleep, and sleepers
    /// whose step does not commute with the chosen one wake.
    func chosenLocked(_ candidates: [Int], _ choice: Int) {
        let chosen = candidates[choice]
        let step = kernel.pending[chosen]
        var sleeping = kernel.sleeping.union(candidates[..<choice])
        sleeping.remove(chosen)
        kernel.sleeping = sleeping.filter { Self.commute(kernel.pending[$0], step) }
        // Its step is being taken; its next one is declared at its next scheduling point.
        kernel.pending[chosen] = nil
        kernel.steps += 1
        if kernel.steps > KernelModel.stepLimit, stuck == nil {
            // A loop that never blocks (a thread spinning on a word no one will change, or
            // yielding for good): the execution would never end.
            stuck = "no progress after \(KernelModel.stepLimit) steps (a thread spins for good)"
            running = -1
        }
    }

    private static func commute(_ a: (word: UInt, writes: Bool)?, _ b: (word: UInt, writes: Bool)?) -> Bool {
        guard let a, let b else { return false }
        return a.word != b.word || (!a.writes && !b.writes)
    }

    /// A spin loop's iterations that fail change nothing (a load, or a compare-and-swap that
    /// fails), so one iteration, delayed by the schedule to where the real loop's last one would
    /// run, reaches every state the real loop reaches: one, to keep the executions few.
    func spinIterations(_ shipped: Int) -> Int {
        atomics ? 1 : shipped
    }

    func futexWait(_ word: UnsafeMutablePointer<UInt32>, expected: UInt32, milliseconds: Int32) -> Int32? {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        guard atomics, let index = me() else { return nil }
        pointLocked(index)
        if word.pointee != expected { return EAGAIN }
        if interruptedLocked() { return milliseconds >= 0 ? ETIMEDOUT : EINTR }
        let sleeper = FutexSleeper(index: index, tid: 0, priorityInheriting: false)
        kernel.queues[key(word), default: []].append(sleeper)
        sleepLocked(sleeper)
        return 0
    }

    func futexWake(_ word: UnsafeMutablePointer<UInt32>, count: Int32) -> Int32? {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        guard atomics, let index = me() else { return nil }
        pointLocked(index)
        var queue = kernel.queues[key(word)] ?? []
        var woke: Int32 = 0
        var result: Int32 = 0
        while woke < count, let first = queue.first {
            if first.priorityInheriting {
                result = EINVAL
                break
            }
            queue.removeFirst()
            woken.insert(ObjectIdentifier(first))
            woke += 1
        }
        kernel.queues[key(word)] = queue
        return result
    }

    func futexLockPI(_ word: UnsafeMutablePointer<UInt32>, me tid: UInt32, milliseconds: Int32) -> Int32? {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        guard atomics, let index = me() else { return nil }
        pointLocked(index)
        let queue = kernel.queues[key(word)] ?? []
        if let top = queue.first, !top.priorityInheriting { return EINVAL }
        let value = word.pointee
        let owner = value & KernelModel.ownerMask
        if owner == 0 {
            if !queue.isEmpty { return EINVAL }
            word.pointee = tid
            return 0
        }
        if owner == tid { return EDEADLK }
        if owner >= KernelModel.firstSyntheticOwner { return ESRCH }
        word.pointee = value | KernelModel.waitersBit
        if interruptedLocked() { return ETIMEDOUT }
        let sleeper = FutexSleeper(index: index, tid: tid, priorityInheriting: true)
        kernel.queues[key(word), default: []].append(sleeper)
        sleepLocked(sleeper)
        explorerCheck(word.pointee & KernelModel.ownerMask == tid, "explorer: a lock sleeper woke without the word")
        return 0
    }

    func futexUnlockPI(_ word: UnsafeMutablePointer<UInt32>, me tid: UInt32) -> Int32? {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        guard atomics, let index = me() else { return nil }
        pointLocked(index)
        let value = word.pointee
        if value & KernelModel.ownerMask != tid { return EPERM }
        var queue = kernel.queues[key(word)] ?? []
        if let top = queue.first {
            if !top.priorityInheriting { return EINVAL }
            queue.removeFirst()
            kernel.queues[key(word)] = queue
            word.pointee = KernelModel.waitersBit | top.tid
            woken.insert(ObjectIdentifier(top))
            return 0
        }
        word.pointee = 0
        return 0
    }

    func claimed(_ object: ObjectIdentifier, _ what: StaticString) {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        guard atomics else { return }
        if !kernel.claims.insert(object).inserted, kernel.violation == nil {
            kernel.violation = "\(what) won by two threads (the one-shot claim was not one)"
        }
    }

    // MARK: Helpers (called with `mutex` held)

    private func key(_ word: UnsafeMutablePointer<UInt32>) -> UInt {
        UInt(bitPattern: word)
    }

    /// A scheduling point of the running thread `index`.
    private func pointLocked(_ index: Int) {
        scheduleLocked()
        waitForTurnLocked(index)
    }

    /// A choice of the schedule: whether this sleep ends without a wake.
    private func interruptedLocked() -> Bool {
        guard kernel.interruptions > 0 else { return false }
        if chooseLocked(2) == 1 {
            kernel.interruptions -= 1
            return true
        }
        return false
    }

    /// The schedule's choice among `options` (recorded like a choice of thread).
    func chooseLocked(_ options: Int) -> Int {
        let position = trace.count
        let choice = position < prefix.count ? min(prefix[position], options - 1) : 0
        trace.append((choice, options))
        return choice
    }

    /// Puts the running thread to sleep until `sleeper` is woken.
    private func sleepLocked(_ sleeper: FutexSleeper) {
        keep.append(sleeper)
        waits[sleeper.index] = .park(ObjectIdentifier(sleeper))
        scheduleLocked()
        waitForTurnLocked(sleeper.index)
    }

    /// Whether any thread is asleep in the kernel model (for a script's end state).
    var sleepersLeft: Int {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return kernel.queues.values.reduce(0) { $0 + $1.count }
    }
}

