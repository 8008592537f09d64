@testable import Ripple
@testable import RippleCore

/// An exhaustive interleaving checker for `observe`'s loop: it runs ``ObserveMachine``'s
/// transitions and the loop's ``DeliveryTurn``, sequenced exactly as ``ObserveLoop`` sequences them
/// (apply a transition "under the lock", perform what it returns "after unlocking"), for two or three
/// simulated threads executing short scripts (start, write the tracked property, cancel), through
/// every order in which their steps can interleave, and checks the loop's contract after every step.
///
/// A step is one thing a real thread does atomically with respect to the others: a critical section
/// of the loop (one transition), a store into the tracked property (its value, its version and the
/// observers it fires change in one critical section of the property's tracker), an observer's
/// arming, firing or cancelling, the start of `compute` (its read) or of `deliver`, a wake-up.
/// Between two steps of one thread, any other thread may run any number of steps — so the windows
/// the real code has (a run that read but has not installed its observer; an observer installed but
/// not yet armed; a turn handed over but its waiter not yet awake; a run scheduled but its job not
/// yet enqueued) are all explored. Schedules are explored depth-first by replaying each from the
/// start (the world is rebuilt for every schedule).
///
/// The observer a run makes is modelled as a token (the machine holds a real, never armed
/// ``TrackingObserver`` for it): armed on the one tracked property at the version the run read (it
/// fires at once, on the arming thread, if the property changed since), fired at most once by a
/// store, cancelled by the loop. Its own internal races (`arm` against `cancel` and `fire`) are
/// `TrackingObserver`'s and are taken as atomic here. The executor runs a scheduled run's job
/// either inline, inside `enqueue` on the scheduling thread (which then runs it, as `.immediate`
/// does), or on a separate simulated thread that runs jobs one at a time in order (a serial queue).
///
/// The contract checked at every step, and at the end of every schedule:
/// - runs never overlap: at most one thread is between the start of `compute` and the end of its
///   run, and a run is admitted only with the turn free;
/// - nothing starts after `cancel()` returned: no `compute` and no `deliver` begins after it;
/// - no lost update: unless cancelled, the loop ends idle, its observer armed, and the last value
///   delivered is the property's last value;
/// - no thread waits forever: every schedule ends with every thread done and the turn free;
/// - every observer the machine hands out (`install`'s previous one, `cancel`'s) is cancelled
///   exactly once; none stays armed but the loop's current one (none at all once cancelled).
final class ObserveChecker {
    /// What a thread does at the top level of its script, or from inside `compute` or `deliver`.
    enum Operation: Hashable, CustomStringConvertible {
        /// `ObserveLoop.start`: the first run, on this thread.
        case start
        /// Stores `value` into the tracked property, firing the observer armed on it.
        case write(Int)
        /// `ObserveLoop.cancel` (at the top level, once the loop has started: its token exists).
        case cancel
        /// `ObserveLoop.cancel` from inside a delivery of the subject the loop delivers into, holding
        /// that subscriber's turn (`TrackedPublisher`: the current value replayed to a new subscriber
        /// that cancels at once, as `first()` does).
        case cancelWhileReceiving

        var description: String {
            switch self {
            case .start: "start"
            case .write(let value): "write(\(value))"
            case .cancel: "cancel"
            case .cancelWhileReceiving: "cancel while receiving"
            }
        }
    }

    /// Where the executor runs a scheduled run's job.
    enum Executor: CustomStringConvertible {
        /// Inside `enqueue`, on the scheduling thread, which then runs it itself (`.immediate`).
        case inline
        /// On a separate simulated thread, one job at a time, in order (a serial queue).
        case separateThread

        var description: String {
            switch self {
            case .inline: "inline executor"
            case .separateThread: "executor thread"
            }
        }
    }

    /// One loop, the body's behaviour, the executor, and the threads' scripts.
    struct Script: CustomStringConvertible {
        var threads: [[Operation]]
        var executor = Executor.inline
        /// Done from inside `compute`, on the running thread, the first time it runs.
        var insideCompute: [Operation] = []
        /// Done from inside `deliver`, on the delivering thread, the first time it is called.
        var insideDeliver: [Operation] = []
        /// Every run's `compute` writes what it read (`observe { model.count += 1 }`), adding 100: its
        /// own write, which its tracking scope absorbs, must not make it run again.
        var writesWhatItReads = false
        /// `deliver` sends into a subject (`TrackedPublisher`): it takes the subscriber's turn for its
        /// length, waiting while another thread holds it.
        var deliversIntoSubject = false

        var description: String {
            var body = ""
            if !insideCompute.isEmpty { body += ", compute does \(insideCompute)" }
            if !insideDeliver.isEmpty { body += ", deliver does \(insideDeliver)" }
            if writesWhatItReads { body += ", compute writes what it reads" }
            if deliversIntoSubject { body += ", deliver sends into a subject" }
            return "\(executor)\(body), threads \(threads)"
        }
    }

    /// Deliberate defects in the protocol, to show the checker catches a broken loop.
    enum Mutation: CaseIterable, CustomStringConvertible {
        /// `admit` admits a scheduled run even though the loop was cancelled meanwhile.
        case admitIgnoresCancel
        /// `runEnded` drops the change that arrived during the run: the loop goes idle.
        case runEndedDropsDirty
        /// `install` keeps a run's observer even though the loop was cancelled meanwhile.
        case installIgnoresCancel
        /// `cancel` returns without waiting for the turn of a run under way on another thread.
        case cancelSkipsAwait
        /// The turn is given back without waking the cancel waiting for it.
        case skipWake
        /// A run's observer is armed without checking that the property is still as the run read it.
        case armIgnoresStaleRead
        /// A run's tracking scope does not absorb the body's own write: it reads as a change.
        case ownWriteNotAbsorbed

        var description: String {
            switch self {
            case .admitIgnoresCancel: "admit ignores cancellation"
            case .runEndedDropsDirty: "runEnded drops dirty"
            case .installIgnoresCancel: "install ignores cancellation"
            case .cancelSkipsAwait: "cancel does not wait for the turn"
            case .skipWake: "leaving the turn wakes nobody"
            case .armIgnoresStaleRead: "arm ignores a stale read"
            case .ownWriteNotAbsorbed: "the body's own write is not absorbed"
            }
        }
    }

    typealias Violation = Interleavings.Violation

    /// Explores every interleaving of `script`. Returns how many schedules it ran, or the first
    /// violation found.
    static func explore(_ script: Script, mutation: Mutation? = nil, limit: Int = 2_000_000) -> Result<Int, Violation> {
        Interleavings.explore(limit: limit) { prefix in
            Run(script: script, mutation: mutation).execute(following: prefix)
        }
    }
}

extension ObserveChecker {
    typealias SimulatedThread = Interleavings.SimulatedThread
    typealias Step = Interleavings.Step

    /// What a run's `compute` read of the property (moved by its own writes).
    final class Read {
        var value: Int
        var version: UInt64

        init(value: Int, version: UInt64) {
            self.value = value
            self.version = version
        }
    }

    /// The observer one run made, as a token: the real (never armed) ``TrackingObserver`` the
    /// machine holds for it, and what became of it.
    final class ObserverToken {
        let observer = TrackingObserver(phases: .didSet, continuous: false) { _ in }
        /// Its number, in the order runs made them.
        let number: Int
        /// The property's version its run read.
        let readVersion: UInt64
        /// Fired or cancelled (the observer's `finished`): it never fires again.
        var finished = false
        /// Armed on the property (in its tracker's list).
        var armed = false
        /// How many times the machine handed it out to be cancelled, and how many times it was.
        var handedOut = 0
        var cancels = 0

        init(number: Int, readVersion: UInt64) {
            self.number = number
            self.readVersion = readVersion
        }
    }

    /// One schedule: the world (the machine, the turn, the tracked property, what was observed) and
    /// the interpreter that sequences the machine's transitions as the loop does.
    final class Run: Interleavings.World {
        let script: Script
        let mutation: Mutation?
        var machine = ObserveMachine()
        var turn = DeliveryTurn()
        /// The turn of the subject's subscriber, when `deliver` sends into a subject.
        var subscriberTurn = DeliveryTurn()
        var threads: [SimulatedThread] = []
        /// Runs the jobs of a separate-thread executor.
        var executorThread: SimulatedThread?
        var trace: [String] = []

        // The tracked property and its tracker.
        var value = 0
        var version: UInt64 = 0
        /// The observers armed on it, in arming order.
        var armed: [ObserverToken] = []
        var tokens: [ObserverToken] = []

        // What was observed.
        /// The thread running each step.
        var running: SimulatedThread!
        /// Threads between the start of `compute` and the end of their run (`runEnded`).
        var inRun: Set<Int> = []
        /// Runs begun: more than ``runLimit`` means the loop runs forever.
        var runs = 0
        var delivered: [Int] = []
        /// `start`'s critical section is over: the loop exists and a top-level cancel may come.
        var started = false
        var cancelReturned = false
        /// The subject's subscriber cancelled its subscription (`first()`, after the loop's cancel).
        var subscriberCancelled = false
        var computeNestedDone = false
        var deliverNestedDone = false
        /// Woken waiters.
        var woken: Set<ObjectIdentifier> = []
        var violation: Violation?

        init(script: Script, mutation: Mutation?) {
            self.script = script
            self.mutation = mutation
            for (index, operations) in script.threads.enumerated() {
                let thread = SimulatedThread(index: index, name: "T\(index)")
                for operation in operations.reversed() {
                    thread.pending.append(step(for: operation, on: thread, nested: false))
                }
                threads.append(thread)
            }
            if script.executor == .separateThread {
                let executor = SimulatedThread(index: threads.count, name: "X")
                executorThread = executor
                threads.append(executor)
            }
        }

        // MARK: Running a schedule

        /// More runs than the scripts' writes can cause: the loop would run forever.
        static let runLimit = 12

        /// Records the first violation of a schedule.
        func report(_ message: @autoclosure () -> String) {
            if violation == nil { violation = fail(message()) }
        }

        /// At the end of a schedule: the turn is free; every observer handed out was cancelled once
        /// and none but the current one is armed; unless cancelled, the loop is idle, armed, and
        /// delivered the property's last value.
        func checkEnd() -> Violation? {
            if turn.isHeld { return fail("the turn is still held at the end") }
            for token in tokens where token.cancels != token.handedOut {
                return fail(
                    "observer #\(token.number) was handed out \(token.handedOut) times, "
                        + "cancelled \(token.cancels) times"
                )
            }
            let current = machine.observer.map(ObjectIdentifier.init)
            for token in armed where ObjectIdentifier(token.observer) != current {
                return fail("observer #\(token.number) is left armed, and is not the loop's")
            }
            if machine.status == .cancelled {
                if machine.observer != nil { return fail("the cancelled loop still holds an observer") }
                return nil
            }
            if machine.status != .idle || machine.dirty {
                return fail(
                    "the loop ends \(machine.status)\(machine.dirty ? ", dirty" : ""), with nothing left to run it")
            }
            if delivered.last != value {
                return fail(
                    "lost update: the last delivery was \(delivered.last.map(String.init) ?? "none"), "
                        + "the property holds \(value)"
                )
            }
            guard let live = tokens.first(where: { ObjectIdentifier($0.observer) == current }), live.armed else {
                return fail("the loop is idle but its observer is not armed: the next write would be lost")
            }
            return nil
        }

        /// Pushes a step onto `thread`, above the ones it already has pending.
        func push(
            _ thread: SimulatedThread, _ label: String, ready: @escaping () -> Bool = { true },
            _ run: @escaping () -> Void
        ) {
            thread.pending.append(Step(label: label, ready: ready, run: run))
        }

        /// Pushes the steps of `operations`, done in order on `thread` from inside a call (above the
        /// call's return, which is pending already).
        func pushNested(_ operations: [Operation], on thread: SimulatedThread) {
            for operation in operations.reversed() where operation != .start {
                thread.pending.append(step(for: operation, on: thread, nested: true))
            }
        }

        func step(for operation: Operation, on thread: SimulatedThread, nested: Bool) -> Step {
            switch operation {
            case .start:
                return Step(label: "start (lock: start, take the turn)") { [self] in start(on: thread) }
            case .write(let new):
                return Step(label: "write(\(new)) (tracker lock: store, take the armed observers)") { [self] in
                    write(new, on: thread)
                }
            case .cancelWhileReceiving:
                let ready = { [unowned self] in started }
                return Step(label: "subject: take the subscriber's turn", ready: ready) { [self] in
                    push(thread, "subject: give the subscriber's turn back") { [self] in
                        leave(&subscriberTurn, on: thread) {}
                    }
                    enter(&subscriberTurn, on: thread, label: "subject") { [self] in
                        // `first()` cancels upstream: `handleEvents` cancels the loop (without waiting
                        // for a run, as `TrackedPublisher` does), then the subject's subscription.
                        push(thread, "receive: cancel the subject's subscription") { [self] in
                            subscriberCancelled = true
                        }
                        push(thread, "receive: cancel (lock: state.cancel)") { [self] in
                            cancel(on: thread, waitingForARun: false)
                        }
                    }
                }
            case .cancel:
                // A cancel from outside needs the loop's token, which exists once the loop started.
                let ready = { [unowned self] in nested || started }
                return Step(label: "cancel (lock: state.cancel)", ready: ready, run: { [self] in cancel(on: thread) })
            }
        }

        // MARK: The loop's sequences, step by step

        /// `ObserveLoop.start`, from inside its critical section on.
        func start(on thread: SimulatedThread) {
            machine.start()
            guard takeRunTurn(on: thread) else { return }
            started = true
            runUntilSettled(on: thread)
        }

        /// `ObserveLoop.takeRunTurnLocked`: the turn must be free.
        func takeRunTurn(on thread: SimulatedThread) -> Bool {
            guard case .call(nested: false) = turn.enter(thread.id, name: "observe") else {
                report("a run was admitted on \(thread.name) while a thread (id \(turn.owner)) held the turn")
                return false
            }
            return true
        }

        /// `ObserveLoop.runUntilSettled`: run; while a change arrived meanwhile, schedule, and run
        /// again here if the executor left the run to this thread and it is admitted.
        func runUntilSettled(on thread: SimulatedThread) {
            runOnce(on: thread) { [self] again in
                guard again else { return }
                schedule(on: thread) { [self] here in
                    guard here else { return }
                    admit(on: thread) { [self] admitted in
                        if admitted { runUntilSettled(on: thread) }
                    }
                }
            }
        }

        /// `ObserveLoop.runOnce`: compute, install, cancel the previous observer, arm, deliver, then
        /// `runEnded` and leave the turn; `then` gets whether to run again.
        func runOnce(on thread: SimulatedThread, then: @escaping (Bool) -> Void) {
            push(thread, "compute: read") { [self] in
                beginRun(on: thread)
                let read = Read(value: value, version: version)
                push(thread, "lock: install") { [self] in
                    install((read.value, read.version), on: thread, then: then)
                }
                if script.writesWhatItReads {
                    push(thread, "compute: write(\(read.value + 100))") { [self] in
                        write(read.value + 100, on: thread, absorbingInto: read)
                    }
                }
                if !computeNestedDone && !script.insideCompute.isEmpty {
                    computeNestedDone = true
                    pushNested(script.insideCompute, on: thread)
                }
            }
        }

        /// The start of `compute`: nobody else runs, and `cancel()` has not returned.
        func beginRun(on thread: SimulatedThread) {
            if cancelReturned { report("compute began on \(thread.name) after cancel() returned") }
            if let other = inRun.first(where: { $0 != thread.index }) {
                report("runs overlap: compute began on \(thread.name) during thread \(other)'s run")
            }
            if let last = machine.observer, let token = tokens.first(where: { $0.observer === last }), !token.finished {
                report(
                    "compute began on \(thread.name) with the last run's observer #\(token.number) still armed: "
                        + "the body's own writes would run it again"
                )
            }
            inRun.insert(thread.index)
            runs += 1
            if runs > Self.runLimit { report("the loop runs forever (\(runs) runs)") }
        }

        /// The critical section after `compute`, and what the run does after it.
        func install(_ read: (value: Int, version: UInt64), on thread: SimulatedThread, then: @escaping (Bool) -> Void)
        {
            let token = ObserverToken(number: tokens.count, readVersion: read.version)
            tokens.append(token)
            guard case .installed(let previous) = machine.install(token.observer) else {
                if mutation == .installIgnoresCancel {
                    installed(token, previous: nil, read: read, on: thread, then: then)
                    return
                }
                // Cancelled meanwhile: the result and the observer are dropped, nothing delivered.
                push(thread, "lock: runEnded, leave the turn") { [self] in runEnded(on: thread, then: then) }
                return
            }
            let previousToken = previous.map(handOut)
            installed(token, previous: previousToken, read: read, on: thread, then: then)
        }

        /// What a run does once `install` kept its observer: cancel the previous one, arm, deliver, and
        /// end the run.
        func installed(
            _ token: ObserverToken, previous previousToken: ObserverToken?, read: (value: Int, version: UInt64),
            on thread: SimulatedThread, then: @escaping (Bool) -> Void
        ) {
            // Pushed in reverse: the top runs first.
            push(thread, "lock: runEnded, leave the turn") { [self] in runEnded(on: thread, then: then) }
            if script.deliversIntoSubject {
                push(thread, "deliver returns: give the subscriber's turn back") { [self] in
                    leave(&subscriberTurn, on: thread) {}
                }
                push(thread, "deliver(\(read.value)): take the subscriber's turn") { [self] in
                    enter(&subscriberTurn, on: thread, label: "deliver(\(read.value))") { [self] in
                        // A cancelled subscription takes nothing more: the value reaches nobody.
                        if !subscriberCancelled { deliver(read.value, on: thread) }
                    }
                }
            } else {
                push(thread, "deliver(\(read.value))") { [self] in deliver(read.value, on: thread) }
            }
            push(thread, "arm observer #\(token.number)") { [self] in arm(token, on: thread) }
            if let previousToken {
                push(thread, "cancel observer #\(previousToken.number)") { [self] in cancelObserver(previousToken) }
            }
        }

        /// The token of an observer the machine handed out to be cancelled.
        func handOut(_ observer: TrackingObserver) -> ObserverToken {
            let token = tokens.first { $0.observer === observer }!
            token.handedOut += 1
            if token.handedOut > 1 { report("observer #\(token.number) was handed out twice") }
            return token
        }

        /// `deliver`: it starts only when nothing else runs and `cancel()` has not returned.
        func deliver(_ delivered: Int, on thread: SimulatedThread) {
            if cancelReturned { report("deliver began on \(thread.name) after cancel() returned") }
            if inRun != [thread.index] { report("deliver began on \(thread.name) outside its run, or during another") }
            self.delivered.append(delivered)
            if !deliverNestedDone && !script.insideDeliver.isEmpty {
                deliverNestedDone = true
                pushNested(script.insideDeliver, on: thread)
            }
        }

        /// The run's last critical section: `runEnded` and leaving the turn (waking a waiter after
        /// unlocking).
        func runEnded(on thread: SimulatedThread, then: @escaping (Bool) -> Void) {
            inRun.remove(thread.index)
            if mutation == .runEndedDropsDirty && machine.status == .running && machine.dirty,
                let observer = machine.observer
            {
                // The machine as `runEnded` leaves it when no change arrived: idle, armed on `observer`.
                machine = ObserveMachine()
                machine.start()
                _ = machine.install(observer)
            }
            let again = machine.runEnded()
            leaveTurn(on: thread) { then(again) }
        }

        /// Gives the turn back (the caller holds it); the next waiter is woken after unlocking, a
        /// step of its own, before `then`.
        func leaveTurn(on thread: SimulatedThread, then: @escaping () -> Void) {
            if turn.owner != thread.id { report("\(thread.name) gives back a turn it does not hold") }
            guard case .handOff(let next) = turn.leave(), mutation != .skipWake else {
                then()
                return
            }
            let key = ObjectIdentifier(next)
            push(thread, "wake the next waiter") { [self] in
                woken.insert(key)
                then()
            }
        }

        /// Takes `turn` (the subscriber's): `then` at once, or once woken (a step of its own).
        func enter(_ turn: inout DeliveryTurn, on thread: SimulatedThread, label: String, then: @escaping () -> Void) {
            switch turn.enter(thread.id, name: "subscriber") {
            case .call:
                then()
            case .wait(let waiter):
                // `ready` holds `waiter`, so no later waiter reuses its address meanwhile.
                let key = ObjectIdentifier(waiter)
                let ready = { [unowned self] in withExtendedLifetime(waiter) { woken.contains(key) } }
                push(thread, "\(label): woken with the subscriber's turn", ready: ready) { [self] in
                    woken.remove(key)
                    then()
                }
            }
        }

        /// Gives `turn` (the subscriber's) back, waking the next waiter after unlocking.
        func leave(_ turn: inout DeliveryTurn, on thread: SimulatedThread, then: @escaping () -> Void) {
            guard case .handOff(let next) = turn.leave() else {
                then()
                return
            }
            let key = ObjectIdentifier(next)
            push(thread, "wake the subscriber's next waiter") { [self] in
                woken.insert(key)
                then()
            }
        }

        /// `ObserveLoop.schedule`: hands the run to the executor; `then` gets whether it is to run on
        /// this thread now (an inline executor left it to the caller).
        func schedule(on thread: SimulatedThread, then: @escaping (Bool) -> Void) {
            guard let executor = executorThread else {
                then(true)  // `enqueue` ran the job inline, which left the run to this thread
                return
            }
            push(thread, "enqueue the job") { [self] in
                // A serial queue: behind the job it runs now, if any.
                executor.pending.insert(
                    Step(label: "job: lock: admit, take the turn") { [self] in
                        admitLocked(on: executor) { [self] admitted in
                            if admitted { runUntilSettled(on: executor) }
                        }
                    },
                    at: 0)
                then(false)
            }
        }

        /// `ObserveLoop.admit`, a critical section of its own.
        func admit(on thread: SimulatedThread, then: @escaping (Bool) -> Void) {
            push(thread, "lock: admit, take the turn") { [self] in admitLocked(on: thread, then: then) }
        }

        /// The critical section of `ObserveLoop.admit`.
        func admitLocked(on thread: SimulatedThread, then: (Bool) -> Void) {
            var admitted = machine.admit()
            if mutation == .admitIgnoresCancel && machine.status == .cancelled { admitted = true }
            guard admitted else {
                then(false)
                return
            }
            guard takeRunTurn(on: thread) else { return }
            then(true)
        }

        /// A store into the tracked property: the value and its version change, and the armed
        /// observers are taken, in one critical section of its tracker; each is fired after it. A
        /// store from inside `compute` is absorbed by the run's tracking scope (`absorbOwnWrite`):
        /// its read moves to the new version if nobody else wrote since.
        func write(_ new: Int, on thread: SimulatedThread, absorbingInto read: Read? = nil) {
            value = new
            version &+= 1
            if let read {
                if read.version &+ 1 == version && mutation != .ownWriteNotAbsorbed { read.version = version }
                read.value = new  // what the body computed from its own write
            }
            let firing = armed
            armed = []
            for token in firing.reversed() {
                token.armed = false
                push(thread, "fire observer #\(token.number)") { [self] in fire(token, on: thread) }
            }
        }

        /// `TrackingObserver.fire`: the first to finish it calls its closure, the loop's `changed`.
        func fire(_ token: ObserverToken, on thread: SimulatedThread) {
            guard !token.finished else { return }
            token.finished = true
            changed(on: thread)
        }

        /// `ObserveLoop.changed`: the transition, then (scheduled) the executor, admit, and runs.
        func changed(on thread: SimulatedThread) {
            push(thread, "lock: changed") { [self] in
                guard machine.changed() else { return }
                schedule(on: thread) { [self] here in
                    guard here else { return }
                    admit(on: thread) { [self] admitted in
                        if admitted { runUntilSettled(on: thread) }
                    }
                }
            }
        }

        /// `TrackingObserver.arm(on:)`: armed if the property is as the run read it; fired at once,
        /// on this thread, if not; nothing if cancelled meanwhile.
        func arm(_ token: ObserverToken, on thread: SimulatedThread) {
            guard !token.finished else { return }
            if token.readVersion == version || mutation == .armIgnoresStaleRead {
                token.armed = true
                armed.append(token)
                return
            }
            token.finished = true
            changed(on: thread)
        }

        /// `TrackingObserver.cancel`: it leaves the property and never fires.
        func cancelObserver(_ token: ObserverToken) {
            token.cancels += 1
            if token.cancels > token.handedOut {
                report("observer #\(token.number) was cancelled but never handed out")
            }
            guard !token.finished else { return }
            token.finished = true
            if token.armed {
                token.armed = false
                armed.removeAll { $0 === token }
            }
        }

        /// `ObserveLoop.cancel`, from inside its first critical section on: cancel the observer it
        /// hands out, then wait for the turn (at once, nested, from inside a run on this thread).
        func cancel(on thread: SimulatedThread, waitingForARun: Bool = true) {
            let observer = machine.cancel().map(handOut)
            if waitingForARun {
                push(thread, "lock: await the turn") { [self] in awaitTurn(on: thread) }
            } else {
                // Returns at once: a run admitted before it may still compute, and send into the
                // subject, whose cancelled subscription drops the value (`installed`). So
                // `cancelReturned`, which forbids any later compute or deliver, stays unset.
                push(thread, "return without waiting") {}
            }
            if let observer {
                push(thread, "cancel observer #\(observer.number)") { [self] in cancelObserver(observer) }
            }
        }

        /// `TurnStorage.awaitTurnLocked` at the end of `cancel`: enter, give back (unless nested),
        /// and return.
        func awaitTurn(on thread: SimulatedThread) {
            let returned = { [unowned self] in cancelReturned = true }
            if mutation == .cancelSkipsAwait {
                returned()
                return
            }
            switch turn.enter(thread.id, name: "observe") {
            case .call(nested: true):
                returned()
            case .call(nested: false):
                leaveTurn(on: thread, then: returned)
            case .wait(let waiter):
                // `ready` holds `waiter`, so no later waiter reuses its address meanwhile.
                let key = ObjectIdentifier(waiter)
                let ready = { [unowned self] in withExtendedLifetime(waiter) { woken.contains(key) } }
                push(thread, "woken: lock, give the turn back", ready: ready) { [self] in
                    woken.remove(key)
                    leaveTurn(on: thread, then: returned)
                }
            }
        }
    }
}
