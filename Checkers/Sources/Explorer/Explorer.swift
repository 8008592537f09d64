#if canImport(Glibc)
import Glibc
#endif
import RippleCore

/// Runs a script's threads as real threads of which exactly one runs at a time, over the engine's
/// real lock, park and wake (through `explorerHooks`): at each scheduling point (a lock wanted, a
/// park, a thread's end, a script's `point()` inside user code) the running thread hands control
/// to the scheduler, which picks the next runnable thread by the schedule being explored, depth
/// first over the choices. A thread that wants a lock another holds is not runnable until it is
/// released; a parked waiter is not runnable until woken.
final class Explorer: ExplorerHooks, @unchecked Sendable {
    enum Wait { case none, lock(ObjectIdentifier), park(ObjectIdentifier), finished }

    var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()
    /// pthread_self → index. Guarded by `mutex`, as is everything below.
    private var indices: [UInt: Int] = [:]
    var waits: [Wait] = []
    var running = -1
    private var lockOwners: [ObjectIdentifier: Int] = [:]
    /// Per thread: the locks it has taken.
    var taken: [Int] = []
    var woken: Set<ObjectIdentifier> = []
    /// Per turn queue: its waiters in the order they joined it, and in the order they were woken.
    private var joined: [ObjectIdentifier: [ObjectIdentifier]] = [:]
    private var handed: [ObjectIdentifier: [ObjectIdentifier]] = [:]
    private var queueOf: [ObjectIdentifier: ObjectIdentifier] = [:]
    /// Kept alive so identities are not reused within an execution.
    var keep: [AnyObject] = []
    /// The schedule: choices to replay, and the choices made (index, options).
    let prefix: [Int]
    var trace: [(choice: Int, options: Int)] = []
    var stuck: String?
    /// Threads that start parked on a waiter (by index): not runnable until it is woken.
    var startsParked: [Int: AnyObject] = [:]
    /// The atomics mode (AtomicExplorer.swift): the real lock and waiter run, every atomic operation
    /// is a scheduling point, futex calls go to `kernel`. Set by a script's `make`.
    var atomics = false
    /// In the atomics mode: whether `Lock` runs its real code (else the explorer's lock stands in,
    /// for scripts about other protocols: the lock has scripts of its own).
    var realLocks = true
    var kernel = KernelModel()

    init(prefix: [Int]) {
        self.prefix = prefix
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&condition, nil)
    }

    // MARK: Running an execution

    /// Runs `bodies` as threads, one at a time; returns when every thread finished, or with
    /// `stuck` set when no thread can run while some have not finished (they stay blocked).
    func run(_ bodies: [@Sendable () -> Void]) {
        pthread_mutex_lock(&mutex)
        waits = Array(repeating: .none, count: bodies.count)
        taken = Array(repeating: 0, count: bodies.count)
        for (index, waiter) in startsParked { waits[index] = .park(ObjectIdentifier(waiter)) }
        pthread_mutex_unlock(&mutex)
        var threads: [pthread_t] = []
        for (index, body) in bodies.enumerated() {
            let box = Unmanaged.passRetained(Start(explorer: self, index: index, body: body)).toOpaque()
            var thread = pthread_t()
            pthread_create(&thread, nil, { raw in
                let start = Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue()
                start.explorer.begin(start.index)
                start.body()
                start.explorer.end(start.index)
                return nil
            }, box)
            threads.append(thread)
        }
        pthread_mutex_lock(&mutex)
        while indices.count < bodies.count { pthread_cond_wait(&condition, &mutex) }
        scheduleLocked()
        while stuck == nil, !waits.allSatisfy({ if case .finished = $0 { true } else { false } }) {
            pthread_cond_wait(&condition, &mutex)
        }
        let finished = stuck == nil
        pthread_mutex_unlock(&mutex)
        if finished { for thread in threads { pthread_join(thread, nil) } } else {
            for thread in threads { pthread_detach(thread) }
        }
    }

    private final class Start: @unchecked Sendable {
        let explorer: Explorer
        let index: Int
        let body: @Sendable () -> Void
        init(explorer: Explorer, index: Int, body: @escaping @Sendable () -> Void) {
            self.explorer = explorer
            self.index = index
            self.body = body
        }
    }

    private func begin(_ index: Int) {
        pthread_mutex_lock(&mutex)
        indices[UInt(pthread_self())] = index
        pthread_cond_broadcast(&condition)
        waitForTurnLocked(index)
        pthread_mutex_unlock(&mutex)
    }

    private func end(_ index: Int) {
        pthread_mutex_lock(&mutex)
        waits[index] = .finished
        scheduleLocked()
        pthread_mutex_unlock(&mutex)
    }

    func me() -> Int? { indices[UInt(pthread_self())] }

    private func runnableLocked(_ index: Int) -> Bool {
        switch waits[index] {
        case .none: true
        case .lock(let lock): lockOwners[lock] == nil
        case .park(let waiter): woken.contains(waiter)
        case .finished: false
        }
    }

    /// Picks the next thread to run (the schedule's choice among the runnable ones).
    func scheduleLocked() {
        let runnable = waits.indices.filter(runnableLocked)
        guard !runnable.isEmpty else {
            if !waits.allSatisfy({ if case .finished = $0 { true } else { false } }) {
                let blocked = waits.enumerated().compactMap { index, wait -> String? in
                    switch wait {
                    case .park: "thread \(index) is parked for good (nobody will wake it)"
                    case .lock: "thread \(index) waits for a lock for good"
                    default: nil
                    }
                }
                stuck = blocked.joined(separator: "; ")
            }
            running = -1
            pthread_cond_broadcast(&condition)
            return
        }
        // The atomics mode leaves out threads whose next step commutes with one explored already
        // (AtomicExplorer.swift, sleep sets).
        let candidates = atomics ? awakeLocked(runnable) : runnable
        var choice = 0
        if candidates.count > 1 {
            let position = trace.count
            choice = position < prefix.count ? min(prefix[position], candidates.count - 1) : 0
            trace.append((choice, candidates.count))
        }
        running = candidates[choice]
        if atomics { chosenLocked(candidates, choice) }
        pthread_cond_broadcast(&condition)
    }

    func waitForTurnLocked(_ index: Int) {
        while running != index { pthread_cond_wait(&condition, &mutex) }
        waits[index] = .none
    }

    /// Makes thread `index` of the next `run` start parked on `waiter`: its body begins once
    /// `waiter` is woken (a script's idle executor thread, which has nothing to do until then).
    /// Call before `run`, from the script's setup.
    func startParked(_ index: Int, on waiter: AnyObject) {
        pthread_mutex_lock(&mutex)
        keep.append(waiter)
        startsParked[index] = waiter
        pthread_mutex_unlock(&mutex)
    }

    /// A scheduling point in user code (a script's subscriber).
    func point() {
        pthread_mutex_lock(&mutex)
        if let index = me() {
            scheduleLocked()
            waitForTurnLocked(index)
        }
        pthread_mutex_unlock(&mutex)
    }

    // MARK: ExplorerHooks

    func lock(_ lock: ExplorerLockIdentity) -> Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        guard !(atomics && realLocks), let index = me() else { return false }
        let id = ObjectIdentifier(lock)
        keep.append(lock)
        explorerCheck(lockOwners[id] != index, "explorer: a thread took a lock it holds")
        waits[index] = .lock(id)
        scheduleLocked()
        waitForTurnLocked(index)
        explorerCheck(lockOwners[id] == nil, "explorer: two holders")
        lockOwners[id] = index
        taken[index] += 1
        return true
    }

    func unlock(_ lock: ExplorerLockIdentity) -> Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        guard !(atomics && realLocks), let index = me() else { return false }
        let id = ObjectIdentifier(lock)
        explorerCheck(lockOwners[id] == index, "explorer: a lock released by a thread that does not hold it")
        lockOwners[id] = nil
        return true
    }

    func holds(_ lock: ExplorerLockIdentity) -> Bool? {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        guard !(atomics && realLocks), let index = me() else { return nil }
        return lockOwners[ObjectIdentifier(lock)] == index
    }

    /// How many locks the calling thread has taken so far (`nil` for a thread the explorer does not
    /// run): a subscriber's `deinit` asks whether its caller took a lock since its last call returned.
    func locksTaken() -> Int? {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return me().map { taken[$0] }
    }

    /// Whether the calling thread holds any lock (`false` for a thread the explorer does not run):
    /// a subscriber's `deinit` asks, so a release under a lock is reported.
    func holdsAnyLock() -> Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        guard let index = me() else { return false }
        return lockOwners.values.contains(index)
    }

    func created(_ waiter: AnyObject, queue: AnyObject) {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        guard !atomics, me() != nil else { return }
        keep.append(waiter)
        keep.append(queue)
        joined[ObjectIdentifier(queue), default: []].append(ObjectIdentifier(waiter))
        queueOf[ObjectIdentifier(waiter)] = ObjectIdentifier(queue)
    }

    func park(_ waiter: AnyObject) -> Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        guard !atomics, let index = me() else { return false }
        waits[index] = .park(ObjectIdentifier(waiter))
        scheduleLocked()
        waitForTurnLocked(index)
        return true
    }

    func wake(_ waiter: AnyObject) -> Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        guard !atomics, me() != nil else { return false }
        let id = ObjectIdentifier(waiter)
        explorerCheck(!woken.contains(id), "explorer: a waiter woken twice")
        woken.insert(id)
        if let queue = queueOf[id] { handed[queue, default: []].append(id) }
        return true
    }

    /// Waiters handed their turn out of the order they joined its queue (first come, first served).
    func unfairHandOver() -> String? {
        for (queue, order) in handed where order != Array(joined[queue, default: []].prefix(order.count)) {
            _ = queue
            return "waiters were handed the turn out of arrival order"
        }
        return nil
    }
}

/// A broken invariant of the explorer itself: stops the process.
func explorerCheck(_ condition: Bool, _ message: String) {
    if !condition {
        print(message)
        exit(2)
    }
}
