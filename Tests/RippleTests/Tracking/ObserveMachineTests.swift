@testable import Ripple
@testable import RippleCore
import Testing

/// `observe`'s state as a value: what each transition decides, in every status.
@Suite struct ObserveMachineTests {
    private func observer() -> TrackingObserver {
        TrackingObserver(phases: .didSet, continuous: false) { _ in }
    }

    /// A machine whose first run is over and whose observer is armed.
    private func idle() -> (ObserveMachine, TrackingObserver) {
        var machine = ObserveMachine()
        machine.start()
        let armed = observer()
        guard case .installed(nil) = machine.install(armed) else {
            Issue.record("the first run's observer was not installed")
            return (machine, armed)
        }
        let answer1 = machine.runEnded()
        #expect(answer1 == false)
        return (machine, armed)
    }

    @Test func theFirstRunInstallsItsObserverAndSettles() {
        let (machine, armed) = idle()
        #expect(machine.status == .idle)
        #expect(machine.observer === armed)
    }

    @Test func aChangeWhileIdleSchedulesOneRun() {
        var (machine, _) = idle()
        let answer2 = machine.changed()
        #expect(answer2)
        #expect(machine.status == .scheduled)
        let answer3 = machine.changed()
        #expect(answer3 == false)  // already scheduled: one run covers both
        let answer4 = machine.admit()
        #expect(answer4)
        #expect(machine.status == .running)
        let answer5 = machine.admit()
        #expect(answer5 == false)  // runs are admitted one at a time
    }

    @Test func aNewRunHandsBackTheLastObserverToCancel() {
        var (machine, first) = idle()
        _ = machine.changed()
        _ = machine.admit()
        let second = observer()
        guard case .installed(let previous) = machine.install(second) else {
            Issue.record("the run's observer was not installed")
            return
        }
        #expect(previous === first)
        #expect(machine.observer === second)
    }

    @Test func aChangeDuringARunRunsOnceMore() {
        var (machine, _) = idle()
        _ = machine.changed()
        _ = machine.admit()
        let answer6 = machine.changed()
        #expect(answer6 == false)  // noted, not scheduled: the run is under way
        let answer7 = machine.changed()
        #expect(answer7 == false)
        _ = machine.install(observer())
        let answer8 = machine.runEnded()
        #expect(answer8)  // once more, for both changes
        #expect(machine.status == .scheduled)
        let answer9 = machine.admit()
        #expect(answer9)
        _ = machine.install(observer())
        let answer10 = machine.runEnded()
        #expect(answer10 == false)
        #expect(machine.status == .idle)
    }

    @Test func cancelIsFinal() {
        var (machine, armed) = idle()
        _ = machine.changed()
        let answer11 = machine.cancel()
        #expect(answer11 === armed)
        #expect(machine.status == .cancelled)
        let answer12 = machine.admit()
        #expect(answer12 == false)  // the scheduled run never starts
        let answer13 = machine.changed()
        #expect(answer13 == false)
        let answer14 = machine.cancel()
        #expect(answer14 == nil)  // the observer was handed over once
    }

    @Test func aRunUnderWayWhenCancelledKeepsNothing() {
        var (machine, _) = idle()
        _ = machine.changed()
        _ = machine.admit()
        _ = machine.changed()  // dirty
        _ = machine.cancel()
        guard case .cancelled = machine.install(observer()) else {
            Issue.record("a cancelled loop installed a run's observer")
            return
        }
        #expect(machine.observer == nil)
        let answer15 = machine.runEnded()
        #expect(answer15 == false)  // no run after the cancel, dirty or not
        #expect(machine.status == .cancelled)
    }
}
