#if canImport(Glibc)
import Glibc
#endif
import RippleCore

/// The scripts over a subject's subscribers (`SubjectCore`, `SubjectConduit`, `TurnLock`).
func conduitScripts() -> [Script] { [
    Script(name: "two sinks, two senders, one then completes", limit: 20_000) { explorer in
        let subject = PassthroughSubject<Int, Never>()
        let log = Log(subscribers: 2)
        attachSink(subject, 0, log, explorer)
        attachSink(subject, 1, log, explorer)
        let senders = [[1], [10]]
        return (
            [
                {
                    for value in senders[0] { log.send(subject, value) }
                    log.complete(subject)
                },
                { for value in senders[1] { log.send(subject, value) } },
            ],
            { log.check(senders: senders) }
        )
    },
    Script(name: "a subscribe racing sends and a completion") { explorer in
        let subject = PassthroughSubject<Int, Never>()
        let log = Log(subscribers: 1)
        log.demandGranted[0] = Int.max
        let senders = [[1, 2]]
        return (
            [
                { subject.subscribe(SettingUp(log: log, explorer: explorer, index: 0)) },
                {
                    for value in senders[0] { log.send(subject, value) }
                    log.complete(subject)
                },
            ],
            { log.check(senders: senders) }
        )
    },
    Script(name: "finite demand: a subscriber asks for .max(2), returns .max(1) from its first value only; four sends") { explorer in
        // One thread: each send starts after the previous delivery returned, so exactly
        // min(sent, granted + returned) = min(4, 2 + 1) = 3 values are delivered.
        let subject = PassthroughSubject<Int, Never>()
        let log = Log(subscribers: 1)
        let senders = [[1, 2, 3, 4]]
        return (
            [
                {
                    subject.subscribe(SettingUp(log: log, explorer: explorer, index: 0, demand: .max(2), returns: [.max(1)]))
                    for value in senders[0] { log.send(subject, value) }
                    log.complete(subject)
                },
            ],
            { log.check(senders: senders, finite: true) ?? log.checkDemandCount(sent: 4) }
        )
    },
    Script(name: "a cancel racing two sends (the only reference to the conduit is the subject's)") { explorer in
        let subject = PassthroughSubject<Int, Never>()
        let log = Log(subscribers: 1)
        let subscriber = SettingUp(log: log, explorer: explorer, index: 0, keepsSubscription: false)
        subject.subscribe(subscriber)
        return (
            [
                { log.send(subject, 1); log.send(subject, 2) },
                { subscriber.cancel() },
            ],
            { log.checkCancel(values: [1, 2], ordered: true) }
        )
    },
    Script(name: "a cancel racing two senders (a waiter for the turn gives up)") { explorer in
        let subject = PassthroughSubject<Int, Never>()
        let log = Log(subscribers: 1)
        let subscriber = SettingUp(log: log, explorer: explorer, index: 0, keepsSubscription: false)
        subject.subscribe(subscriber)
        return (
            [
                { log.send(subject, 1) },
                { log.send(subject, 2) },
                { subscriber.cancel() },
            ],
            { log.checkCancel(values: [1, 2], ordered: false) }
        )
    },
    Script(name: "a cancel racing a send to two subscribers (the sender offers from its snapshot)") { explorer in
        let subject = PassthroughSubject<Int, Never>()
        let log = Log(subscribers: 2)
        let subscriber = SettingUp(log: log, explorer: explorer, index: 0, keepsSubscription: false)
        subject.subscribe(subscriber)
        attachSink(subject, 1, log, explorer)
        return (
            [
                { log.send(subject, 1); log.send(subject, 2) },
                { subscriber.cancel() },
            ],
            { log.checkCancel(values: [1, 2], ordered: true) }
        )
    },
    Script(name: "CurrentValueSubject replay: a .max(1) subscriber subscribing while another thread sends") { explorer in
        let subject = CurrentValueSubject<Int, Never>(0)
        let log = Log(subscribers: 1)
        return (
            [
                { subject.subscribe(SettingUp(log: log, explorer: explorer, index: 0, demand: .max(1), returned: .max(1))) },
                { log.send(subject, 1); log.send(subject, 2) },
            ],
            {
                // The first request gets the current value (at the request or later), then only
                // values sent after it, each once, in order; never more than the demand allows.
                if let first = log.violations.first { return first }
                let got = log.received[0]
                guard let first = got.first else { return "the first request got no value (the current one is owed)" }
                let storedBefore = [1, 2].filter { log.sendEnd[$0]! < log.requestStart[0] }.max() ?? 0
                if first < storedBefore { return "the first value was \(first), older than the current value \(storedBefore) at the request" }
                for (a, b) in zip(got, got.dropFirst()) where b <= a { return "values repeated or out of order: \(got)" }
                return nil
            }
        )
    },
    Script(name: "a nested send: a subscriber sends into its subject from receive(_:) while another thread sends") { explorer in
        let subject = PassthroughSubject<Int, Never>()
        let log = Log(subscribers: 1)
        let subscriber = NestedSender(log: log, explorer: explorer, subject: subject, trigger: 1, nested: 100)
        subject.subscribe(subscriber)
        return (
            [
                { log.send(subject, 1) },
                { log.send(subject, 2) },
            ],
            {
                if let first = log.violations.first { return first }
                let got = log.received[0]
                if got.sorted() != [1, 2, 100] { return "got \(got), not 1, 2 and 100 each once" }
                if subscriber.outerOfNested != [1] { return "the nested value was not delivered inside the call that sent it: \(subscriber.outerOfNested ?? [])" }
                return nil
            }
        )
    },
    Script(name: "one sink, three senders (two waiters queue up)") { explorer in
        let subject = PassthroughSubject<Int, Never>()
        let log = Log(subscribers: 1)
        attachSink(subject, 0, log, explorer)
        let senders = [[1], [2], [3]]
        return (
            [
                { log.send(subject, 1); log.complete(subject) },
                { log.send(subject, 2) },
                { log.send(subject, 3) },
            ],
            { log.check(senders: senders) }
        )
    },
] }
