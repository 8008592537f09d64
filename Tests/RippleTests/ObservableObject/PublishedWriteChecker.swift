@testable import RippleCore

/// An exhaustive interleaving checker for an observed `@Published` property's writes: it runs the
/// real ``PublishedState`` (and the ``PublishedWriteMachine`` and ``DeliveryTurn`` inside it: the
/// version, whether there is a `$property`, the turn), sequenced exactly as `PublishedBox.setObserved`
/// sequences it — begin and take the callouts under the lock, the callouts unlocked, end and store
/// under the lock, wake the next writer after unlocking — for two or three simulated threads
/// that write the property and make its `$property`, through every order in which their steps can
/// interleave, and checks the contract after every step.
///
/// A step is one thing a real thread does atomically with respect to the others: a critical
/// section of the property's lock, a delivery into `$property` (the subject's own turn makes each
/// send atomic with respect to other senders), a subscriber's return, a wake-up.
///
/// The contract checked:
/// - no two threads are inside `$property`'s subscriber at once, and no value is delivered twice;
/// - whenever no write is under way, the property's value is `$property`'s current value (the last
///   value its subscribers received, or the value it was made from);
/// - the version counts the stores;
/// - no thread waits forever, and the turn is free at the end.
final class PublishedWriteChecker {
    /// What a thread does.
    enum Operation: Hashable, CustomStringConvertible {
        /// Writes the value (`model.x = value`).
        case write(Int)
        /// Uses `$property` for the first time: its subject is made from the stored value.
        case makeProjection

        var description: String {
            switch self {
            case .write(let value): "write(\(value))"
            case .makeProjection: "$property"
            }
        }
    }

    /// The threads' scripts, and what the `$property` subscriber does.
    struct Script: CustomStringConvertible {
        var threads: [[Operation]]
        /// The property has its `$property` (and a subscriber) before any thread starts.
        var projected = true
        /// The subscriber assigns the property the value it received plus 100, from inside the
        /// delivery, the first time it receives a value under 100 (a nested write).
        var subscriberWritesBack = false

        var description: String {
            let start = projected ? "$property made" : "no $property yet"
            let subscriber = subscriberWritesBack ? ", subscriber writes back once" : ""
            return "\(start)\(subscriber), threads \(threads)"
        }
    }

    /// Deliberate defects, to show the checker catches a broken protocol.
    enum Mutation: CaseIterable, CustomStringConvertible {
        /// A write without a `$property` stores even if one was made while its callouts ran.
        case unorderedNeverStartsOver
        /// A write that stores over a nested write's value leaves `$property`'s current value at the
        /// nested write's.
        case overNestedLeavesCurrent
        /// The turn is given back without waking the next writer.
        case skipWake
        /// Writes never take the turn.
        case writesTakeNoTurn

        var description: String {
            switch self {
            case .unorderedNeverStartsOver: "a write without $property never starts over"
            case .overNestedLeavesCurrent: "a write over a nested one leaves $property's current value"
            case .skipWake: "the turn is given back without a wake"
            case .writesTakeNoTurn: "writes take no turn"
            }
        }
    }

    typealias Violation = Interleavings.Violation

    /// Explores every interleaving of `script`: how many schedules ran, or the first violation.
    static func explore(_ script: Script, mutation: Mutation? = nil) -> Result<Int, Violation> {
        Interleavings.explore { prefix in
            Run(script: script, mutation: mutation).execute(following: prefix)
        }
    }
}

extension PublishedWriteChecker {
    typealias SimulatedThread = Interleavings.SimulatedThread
    typealias Step = Interleavings.Step

    /// One write under way: what it began as and saw.
    final class Write {
        let value: Int
        /// What the state decided as it began (role, version, whether it sends to `$property`).
        var callouts: PublishedState.Callouts?
        /// Whether its will-set callouts ran already (a write that starts over does not repeat them).
        var announced = false

        init(value: Int) { self.value = value }

        var sends: Bool { callouts?.projection != nil }
    }

    /// Stands for `$property`'s subject in the state (the checker models its current value itself).
    final class Projection {}

    /// One schedule: the property, its `$property`, the state, and what was observed.
    final class Run: Interleavings.World {
        let script: Script
        let mutation: Mutation?
        var state = PublishedState()
        var threads: [SimulatedThread] = []
        var trace: [String] = []

        // The property.
        var stored = 0
        var stores: UInt64 = 0
        /// `$property`'s current value: the value it was made from, then the last one it sent.
        var projectionCurrent: Int?

        // What was observed.
        var running: SimulatedThread!
        /// How many writes of each thread are under way (nested ones included).
        var writing: [Int: Int] = [:]
        /// Which thread is inside the subscriber, and how deep.
        var inside: [Int: Int] = [:]
        var delivered: Set<Int> = []
        var wroteBack = false
        /// Writers handed the turn and woken (kept, so that no other waiter reuses their identity).
        var woken: [TurnWaiter] = []
        var violation: Violation?

        init(script: Script, mutation: Mutation?) {
            self.script = script
            self.mutation = mutation
            if script.projected { state.project(Projection()) }
            projectionCurrent = script.projected ? 0 : nil
            for (index, operations) in script.threads.enumerated() {
                let thread = SimulatedThread(index: index)
                for operation in operations.reversed() {
                    switch operation {
                    case .write(let value): pushWrite(Write(value: value), on: thread)
                    case .makeProjection: pushMakeProjection(on: thread)
                    }
                }
                threads.append(thread)
            }
        }

        func perform(_ step: Step, on thread: SimulatedThread) -> Violation? {
            running = thread
            step.run()
            if violation == nil { checkQuiescent() }
            return violation
        }

        func checkEnd() -> Violation? {
            if state.writes.turn.isHeld { return fail("the turn is still held at the end") }
            let version = state.tracker.version
            if version != stores { return fail("version \(version) after \(stores) stores") }
            return nil
        }

        /// With no write under way anywhere, the property and `$property` agree.
        func checkQuiescent() {
            guard writing.values.allSatisfy({ $0 == 0 }), let projectionCurrent, projectionCurrent != stored else {
                return
            }
            violation = fail("the property holds \(stored) but $property's current value is \(projectionCurrent)")
        }

        func push(_ thread: SimulatedThread, _ label: String, ready: @escaping () -> Bool = { true },
                  _ run: @escaping () -> Void) {
            thread.pending.append(Step(label: label, ready: ready, run: run))
        }

        // MARK: The steps of `setObserved`

        /// Pushes a write's steps (run in this order): begin, the callouts, end.
        func pushWrite(_ write: Write, on thread: SimulatedThread) {
            push(thread, "end write(\(write.value))") { [self] in end(write, on: thread) }
            push(thread, "callouts of write(\(write.value))") { [self] in callouts(write, on: thread) }
            push(thread, "begin write(\(write.value))") { [self] in begin(write, on: thread) }
        }

        /// The first critical section: begin (and, if another writer holds the turn, park), then
        /// take the callouts.
        func begin(_ write: Write, on thread: SimulatedThread) {
            if !write.announced { writing[thread.index, default: 0] += 1 }
            let begin =
                mutation == .writesTakeNoTurn
                ? state.writes.begin(thread: thread.id, ordered: false, name: "checked property")
                : state.beginWrite(thread: thread.id, name: "checked property")
            switch begin {
            case .write(let role):
                noteStart(write, role)
            case .wait(let waiter):
                // The lock is given up while parked; taken again once woken.
                push(thread, "woken: write(\(write.value)) takes its callouts", ready: { [self] in woken.contains { $0 === waiter } }) {
                    [self] in noteStart(write, .ordered)
                }
            }
        }

        func noteStart(_ write: Write, _ role: PublishedWriteMachine.Role) {
            write.callouts = state.callouts(role, announce: !write.announced)
            write.announced = true
        }

        /// Unlocked: the will-set callouts (not modelled: they do not touch the property), then the
        /// send into `$property`.
        func callouts(_ write: Write, on thread: SimulatedThread) {
            guard write.sends else { return }
            if inside.contains(where: { $0.key != thread.index && $0.value > 0 }) {
                violation = fail("two threads inside $property's subscriber")
                return
            }
            if delivered.contains(write.value) {
                violation = fail("write(\(write.value)) delivered twice")
                return
            }
            delivered.insert(write.value)
            projectionCurrent = write.value
            inside[thread.index, default: 0] += 1
            push(thread, "return from the subscriber (\(write.value))") { [self] in inside[thread.index]! -= 1 }
            if script.subscriberWritesBack, !wroteBack, write.value < 100 {
                wroteBack = true
                pushWrite(Write(value: write.value + 100), on: thread)
            }
        }

        /// The second critical section: end and store; then, unlocked, wake the next writer.
        func end(_ write: Write, on thread: SimulatedThread) {
            let exit: DeliveryTurn.Exit
            switch state.endWrite(write.callouts!) {
            case .startOver where mutation == .unorderedNeverStartsOver:
                _ = state.tracker.stored()  // stores anyway, without going through `$property`
                exit = .idle
            case .startOver:
                pushWrite(write, on: thread)
                return
            case .store(let store):
                exit = store.exit
                if store.resetsProjection, mutation != .overNestedLeavesCurrent { projectionCurrent = write.value }
            }
            stored = write.value
            stores += 1
            writing[thread.index]! -= 1
            if case .handOff(let next) = exit, mutation != .skipWake {
                push(thread, "wake the next writer") { [self] in woken.append(next) }
            }
        }

        /// `$property` used for the first time: one critical section (both locks) that makes the
        /// subject from the stored value.
        func pushMakeProjection(on thread: SimulatedThread) {
            push(thread, "make $property") { [self] in
                guard state.projection == nil else { return }
                state.project(Projection())
                projectionCurrent = stored
            }
        }
    }
}
