@testable import Ripple
@testable import RippleCore

/// An exhaustive interleaving checker for a subject's conduit: it runs ``ConduitMachine``'s
/// transitions, sequenced exactly as `SubjectConduit` sequences them (apply a transition "under the
/// lock", perform what it returns "after unlocking"), for two or three simulated threads executing
/// short scripts, through every order in which their steps can interleave, and checks the delivery
/// contract after every step.
///
/// A step is one thing a real thread does atomically with respect to the others: a critical section
/// (one transition, under the subject's lock), the start of a call to the subscriber, its return, a
/// wake-up, a release. Between two steps of one thread, any other thread may run any number of
/// steps — so the windows the real code has (a delivery decided but not yet called; a turn handed
/// over but its waiter not yet awake; a subscriber let go but not yet released) are all explored.
/// Schedules are explored depth-first by replaying each from the start (the world is rebuilt for
/// every schedule), so the machine's own classes (turn queues, waiters) need no copying.
///
/// The contract checked at every step, and at the end of every schedule:
/// - calls to the subscriber never overlap across threads (a nested call on the same thread is fine);
/// - every value is delivered at most once, on the thread that sent it, and never after the
///   completion; the completion at most once;
/// - nothing is decided after `cancel()` returned, and a call that starts after it was decided
///   before it (by the thread that held the turn);
/// - the subscriber is released exactly once when terminated, never while the lock is held, and
///   every pin is dropped;
/// - no thread waits forever: every schedule ends with every thread done and the turn free.
final class ConduitChecker {
    /// What a thread does at the top level of its script, or from inside a call (nested).
    enum Operation: Hashable, Sendable, CustomStringConvertible {
        case send(Int)
        case request(Int)
        case cancel
        case complete
        /// The subscriber subscribes (the script's first step; the conduit starts fresh, with no
        /// demand) and does these from inside its `receive(subscription:)`.
        case subscribe([Operation])

        var description: String {
            switch self {
            case .send(let value): "send(\(value))"
            case .request(let count): "request(\(count))"
            case .cancel: "cancel"
            case .complete: "complete"
            case .subscribe(let setUp): "subscribe, doing \(setUp) inside receive(subscription:)"
            }
        }
    }

    /// What the subscriber does when called with a value.
    struct Behaviour: CustomStringConvertible {
        /// Returned from `receive(_:)`.
        var returns = 0
        /// Done from inside the call, on the calling thread, the first time a value arrives.
        var nested: [Operation] = []

        var description: String {
            nested.isEmpty ? "returns \(returns)" : "returns \(returns), does \(nested) inside"
        }
    }

    /// One subject, its subscriber, and its threads' scripts.
    struct Script: CustomStringConvertible {
        var threads: [[Operation]]
        var behaviour = Behaviour()
        /// The subscriber's demand before any thread starts (`nil`: unlimited).
        var initialDemand: Int? = 1
        /// A ``CurrentValueSubject`` (starting with the value 0), rather than a passthrough subject.
        var replays = false

        /// Whether a thread subscribes: then the conduit starts as a new one (no demand; a
        /// CurrentValueSubject's owes the current value).
        var subscribes: Bool {
            threads.contains { $0.contains { if case .subscribe = $0 { true } else { false } } }
        }

        var description: String {
            let subject = replays ? "CurrentValueSubject" : "PassthroughSubject"
            let demand = initialDemand.map { "demand \($0)" } ?? "unlimited demand"
            return "\(subject), \(demand), subscriber \(behaviour), threads \(threads)"
        }
    }

    /// Deliberate defects in the sequencing, to show the checker catches a broken protocol.
    enum Mutation {
        /// Give the turn back without waking the next waiter.
        case skipWake
        /// Give the turn back before calling the subscriber, rather than after.
        case leaveBeforeCall
        /// Release the subscriber at cancel even while another thread holds its turn.
        case releaseWhileHeld
        /// Call `receive(subscription:)` outside the conduit's turn (as before it ran in turn).
        case setUpOutsideTurn
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

extension ConduitChecker {
    typealias SimulatedThread = Interleavings.SimulatedThread
    typealias Step = Interleavings.Step

    /// Counts the subscriber's releases, and checks that none happens under the lock.
    final class SubscriberToken {
        /// Weak: the schedule's world is torn down with the subscriber still in it.
        weak var run: Run?
        init(run: Run) { self.run = run }
        deinit { run?.subscriberReleased() }
    }

    /// One schedule: the world (the machine, the subject's flags, what was observed) and the
    /// interpreter that sequences the machine's transitions as the conduit does.
    final class Run: Interleavings.World {
        let script: Script
        let mutation: Mutation?
        var machine: ConduitMachine<Int, Never>
        var threads: [SimulatedThread] = []
        var trace: [String] = []

        // The subject.
        var completed = false
        var current = 0
        var version: UInt64 = 0

        // The "lock": set for the length of each critical section.
        var lockHeld = false

        // What was observed.
        /// The thread running each step (the subscriber's closure asks).
        var running: SimulatedThread!
        /// Threads whose next call sends the subject's current value again (a replay).
        var replaying: Set<Int> = []
        /// How deep each thread is inside the subscriber.
        var inside: [Int: Int] = [:]
        /// Values sent, by sender thread; values delivered.
        var sender: [Int: Int] = [:]
        var delivered: Set<Int> = []
        var completions = 0
        var releases = 0
        var pins = 0
        var cancelReturned = false
        /// Woken waiters.
        var woken: Set<ObjectIdentifier> = []
        var nestedDone = false
        var violation: Violation?

        init(script: Script, mutation: Mutation?) {
            self.script = script
            self.mutation = mutation
            machine = ConduitMachine(downstream: .released, replaysCurrent: script.replays)
            let token = SubscriberToken(run: self)
            machine = ConduitMachine(
                downstream: .subscriber { [unowned self] delivery in
                    withExtendedLifetime(token) { self.receive(delivery) }
                },
                replaysCurrent: script.replays)
            if let demand = script.initialDemand {
                machine.demand = .max(demand)
            } else {
                machine.demand = .unlimited
            }
            if script.replays && !script.subscribes {
                // A subscriber that has seen the current value already, as after its first request.
                machine.owesCurrent = false
            }
            for (index, operations) in script.threads.enumerated() {
                let thread = SimulatedThread(index: index)
                for operation in operations.reversed() {
                    thread.pending.append(step(for: operation, on: thread))
                }
                threads.append(thread)
            }
        }

        // MARK: Running a schedule

        /// At the end of a schedule: the turn is free; a terminated subscriber was released once.
        func checkEnd() -> Violation? {
            if machine.turn.isHeld { return fail("the turn is still held at the end") }
            if machine.terminated && releases != 1 {
                return fail("a terminated subscriber was released \(releases) times")
            }
            if !machine.terminated && releases != 0 { return fail("a live subscriber was released") }
            if pins != 0 { return fail("\(pins) pin(s) never dropped") }
            return nil
        }

        /// Runs `body` as a critical section.
        func locked<R>(_ body: () -> R) -> R {
            lockHeld = true
            defer { lockHeld = false }
            return body()
        }

        func push(_ thread: SimulatedThread, _ label: String, ready: @escaping () -> Bool = { true },
                  _ run: @escaping () -> Void) {
            thread.pending.append(Step(label: label, ready: ready, run: run))
        }

        // MARK: The subscriber

        func receive(_ delivery: SubjectConduit<Int, Never>.Delivery) -> Subscribers.Demand {
            let thread = running!
            if inside.contains(where: { $0.key != thread.index && $0.value > 0 }) {
                violation = violation ?? fail("two threads are inside the subscriber at once")
            }
            switch delivery {
            case .value(let value):
                if completions > 0 { violation = violation ?? fail("value \(value) delivered after the completion") }
                if replaying.remove(thread.index) == nil {
                    if !delivered.insert(value).inserted { violation = violation ?? fail("value \(value) delivered twice") }
                    if sender[value] != thread.index {
                        violation = violation ?? fail("value \(value) delivered on thread \(thread.index), not its sender's")
                    }
                }
                if !nestedDone {
                    nestedDone = true
                    for operation in script.behaviour.nested.reversed() {
                        thread.pending.append(step(for: operation, on: thread))
                    }
                }
                return script.behaviour.returns == 0 ? .none : .max(script.behaviour.returns)
            case .completion:
                completions += 1
                if completions > 1 { violation = violation ?? fail("the completion delivered twice") }
                return .none
            }
        }

        func subscriberReleased() {
            releases += 1
            if lockHeld { violation = violation ?? fail("the subscriber was released under the lock") }
        }

        // MARK: The conduit's sequences, step by step

        func step(for operation: Operation, on thread: SimulatedThread) -> Step {
            switch operation {
            case .send(let value):
                return Step(label: "send(\(value)): offer") { [self] in send(value, on: thread) }
            case .request(let count):
                return Step(label: "request(\(count))") { [self] in request(count, on: thread) }
            case .cancel:
                return Step(label: "cancel") { [self] in cancel() }
            case .complete:
                return Step(label: "send(completion:)") { [self] in complete(on: thread) }
            case .subscribe(let setUp):
                return Step(label: "subscribe: enter the first turn") { [self] in subscribe(setUp, on: thread) }
            }
        }

        /// `SubjectCore.receive(subscriber:)` and `SubjectConduit.setUpLocked`: in the critical
        /// section that added the conduit, take its (free) turn; call `receive(subscription:)` with
        /// the lock released (the operations inside it pushed above its return); then, as after a
        /// delivery, `delivered` — a current value still owed, or leave.
        func subscribe(_ setUp: [Operation], on thread: SimulatedThread) {
            lockHeld = true
            defer { lockHeld = false }
            let entry: ConduitMachine<Int, Never>.Entry = mutation == .setUpOutsideTurn ? .call(nested: true) : machine.enter(thread.id)
            enter(entry, on: thread, for: "subscribe") { [self] nested in
                push(thread, "call receive(subscription:)") { [self] in
                    inside[thread.index, default: 0] += 1
                    push(thread, "receive(subscription:) returned") { [self] in
                        inside[thread.index, default: 0] -= 1
                        lockHeld = true
                        defer { lockHeld = false }
                        switch machine.delivered(
                            .none, nested: nested, subjectCompleted: completed, replays: script.replays, version: version)
                        {
                        case .nested:
                            return
                        case .deliverCurrent:
                            replaying.insert(thread.index)
                            call(.value(current), nested: false, unlimited: false, on: thread)
                        case .leave(let leave):
                            self.leave(leave, on: thread)
                        }
                    }
                    for operation in setUp.reversed() {
                        thread.pending.append(step(for: operation, on: thread))
                    }
                }
            }
        }

        /// `SubjectCore.send` (one subscriber: the subject's update and the offer in one critical
        /// section) and `SubjectConduit.offerLocked`.
        func send(_ value: Int, on thread: SimulatedThread) {
            sender[value] = thread.index
            lockHeld = true
            guard !completed else {
                lockHeld = false
                return
            }
            if script.replays {
                current = value
                version &+= 1
            }
            let offer = machine.offer(thread: thread.id, version: version, subjectCompleted: completed, replays: script.replays)
            enter(offer.entry, on: thread, for: "send(\(value))") { [self] nested in
                call(.value(value), nested: nested, unlimited: offer.unlimited, on: thread)
            }
            lockHeld = false
        }

        /// `SubjectConduit.request`.
        func request(_ count: Int, on thread: SimulatedThread) {
            lockHeld = true
            defer { lockHeld = false }
            guard case .deliverCurrent(let entry) = machine.request(.max(count), thread: thread.id, subjectCompleted: completed)
            else { return }
            enter(entry, on: thread, for: "request(\(count))") { [self] nested in
                if machine.takeCurrentIfOwed(subjectCompleted: completed, version: version) {
                    replaying.insert(thread.index)
                    call(.value(current), nested: nested, unlimited: false, on: thread)
                } else if !nested {
                    leave(machine.leave(), on: thread)
                }
            }
        }

        /// `SubjectConduit.cancel`.
        func cancel() {
            lockHeld = true
            switch machine.terminate() {
            case .none:
                lockHeld = false
            case .pin:
                if mutation == .releaseWhileHeld {
                    // The defect: let the subscriber go now, although a thread holds its turn.
                    machine.pinned = false
                    let taken = machine.downstream.take()
                    lockHeld = false
                    _ = consume taken
                } else {
                    pins += 1
                    lockHeld = false
                }
            case .release(let downstream):
                lockHeld = false
                _ = consume downstream
            }
            cancelReturned = true
        }

        /// `SubjectCore.send(completion:)` (the subject's flag), then `SubjectConduit.finish`.
        func complete(on thread: SimulatedThread) {
            let first = locked {
                defer { completed = true }
                return !completed
            }
            guard first else { return }
            push(thread, "send(completion:): finish") { [self] in
                lockHeld = true
                let entry = machine.enterForCompletion(thread: thread.id)
                enter(entry, on: thread, for: "completion") { [self] nested in
                    if case .pin = machine.terminate() { pins += 1 }
                    call(.completion(.finished), nested: nested, unlimited: false, on: thread)
                }
                lockHeld = false
            }
        }

        /// `SubjectConduit.enterLocked`, inside a critical section: call at once, or park until
        /// woken and then resume (a step of its own) — or give up. `then` runs as the rest of the
        /// critical section that has the turn.
        func enter(
            _ entry: ConduitMachine<Int, Never>.Entry, on thread: SimulatedThread, for label: String,
            then: @escaping (Bool) -> Void
        ) {
            switch entry {
            case .drop:
                return
            case .call(let nested):
                then(nested)
            case .wait(let waiter):
                // `ready` holds `waiter`, so no later waiter reuses its address meanwhile.
                let key = ObjectIdentifier(waiter)
                let ready = { [unowned self] in withExtendedLifetime(waiter) { woken.contains(key) } }
                push(thread, "\(label): woken, resume", ready: ready) { [self] in
                    woken.remove(key)
                    lockHeld = true
                    defer { lockHeld = false }
                    guard machine.resumed() else {
                        leave(machine.leave(), on: thread)
                        return
                    }
                    then(false)
                }
            }
        }

        /// Inside the critical section that took the turn: records the decision, then pushes a step
        /// that starts the call (with the lock released), which pushes one for its return
        /// (`SubjectConduit.didDeliver`, or the completion's leave) beneath the subscriber's nested
        /// operations.
        func call(_ delivery: SubjectConduit<Int, Never>.Delivery, nested: Bool, unlimited: Bool, on thread: SimulatedThread) {
            if cancelReturned && !machine.isCompletion(delivery) {
                violation = violation ?? fail("a delivery was decided after cancel() returned")
            }
            if mutation == .leaveBeforeCall && !nested {
                leave(machine.leave(), on: thread)
            }
            let label: String
            switch delivery {
            case .value(let value): label = "call receive(\(value))"
            case .completion: label = "call receive(completion:)"
            }
            push(thread, label) { [self] in
                if machine.downstream.isReleased {
                    violation = violation ?? fail("the subscriber was let go while a thread was about to call it")
                    return
                }
                inside[thread.index, default: 0] += 1
                var returned = Subscribers.Demand.none
                push(thread, "\(label) returned") { [self] in
                    inside[thread.index, default: 0] -= 1
                    guard mutation != .leaveBeforeCall || nested else { return }
                    lockHeld = true
                    defer { lockHeld = false }
                    guard case .value = delivery else {
                        if !nested { leave(machine.leave(), on: thread) }
                        return
                    }
                    switch machine.delivered(
                        unlimited ? .none : returned, nested: nested, subjectCompleted: completed,
                        replays: script.replays, version: version)
                    {
                    case .nested:
                        return
                    case .deliverCurrent:
                        replaying.insert(thread.index)
                        call(.value(current), nested: false, unlimited: false, on: thread)
                    case .leave(let leave):
                        self.leave(leave, on: thread)
                    }
                }
                // Whatever the subscriber does inside the call is pushed above the return.
                switch delivery {
                case .value(let value): returned = machine.downstream.receive(value)
                case .completion(let completion): machine.downstream.receive(completion: completion)
                }
            }
        }

        /// `SubjectConduit.performLocked`, inside a critical section: unlock, then release the
        /// subscriber and drop the pin, and wake the next waiter (a step of its own).
        func leave(_ leave: consuming ConduitMachine<Int, Never>.Leave, on thread: SimulatedThread) {
            lockHeld = false
            let exit = leave.exit
            let unpin = leave.unpin
            _ = consume leave
            if unpin { pins -= 1 }
            if case .handOff(let next) = exit, mutation != .skipWake {
                let key = ObjectIdentifier(next)
                push(thread, "wake the next waiter") { [self] in woken.insert(key) }
            }
            lockHeld = true
        }
    }
}

extension ConduitDownstream {
    /// Whether the subscriber has been let go.
    var isReleased: Bool {
        switch self {
        case .released: true
        default: false
        }
    }
}

extension ConduitMachine {
    /// Whether `delivery` is the completion.
    func isCompletion(_ delivery: SubjectConduit<Output, Failure>.Delivery) -> Bool {
        if case .completion = delivery { return true }
        return false
    }
}
