#if canImport(Glibc)
import Glibc
#endif
import RippleCore

/// The scripts over an observed `@Published` property's writes: the real `PublishedBox.setObserved`
/// (its `PublishedState`, `PublishedWriteMachine` and write turn, run by `TrackerStorage` through
/// the one turn runner), the `$property` subject (`SubjectCore`) and the object's will-change
/// publisher, on a real `ObservableObject`. Every script's object has its `objectWillChange` linked
/// from the start (so every write is an observed one, with or without `$property`), most with a sink
/// on it; threads write the property and subscribe sinks to `$property`. Checked for every execution (beyond the explorer's own: every thread finishes,
/// waiters served in arrival order), by `PublishedLog`:
/// - no two threads inside one `$property` subscriber at once; no value delivered to one twice;
/// - progress: each write that began after a subscriber's subscription returned is delivered to it
///   exactly once (Combine's `@Published` sends every set's value to `$property` in `willSet`) — a
///   nested write's too;
/// - the order: each value the first subscriber receives (after its first, the current value) finds
///   the property still holding the value it received before (the stores follow the deliveries, one
///   write at a time); a nested delivery finds what the enclosing one found;
/// - at the end: the property holds `$property`'s current value (what a new subscriber starts from)
///   and the first subscriber's last value (the last delivery outside a nested one);
/// - with an `objectWillChange` sink: it fires exactly once per write (a write that starts over does not repeat it),
///   on the writer's thread, before the store (the property does not hold the value yet) and before
///   the value reaches any `$property` subscriber.
func publishedScripts() -> [Script] { [
    // Two writers with `$x` subscribed: one waits for the write turn and is handed it. The
    // will-change sink reads the property (it must not hold the new value yet).
    publishedScript([[.write(1)], [.write(10)]], projected: true),
    // One writer writes twice, the other once: the first comes back for the turn while the other
    // waits for it or holds it.
    publishedScript([[.write(1), .write(2)], [.write(10)]], projected: true, willChangeSink: false, sinkReads: false),
    // A nested write: `$x`'s subscriber assigns x = 101 from inside its delivery of 1, while the
    // other thread writes 10 (before or after); the outer write stores over it, and `$x`'s current
    // value becomes the outer write's again.
    publishedScript([[.write(1)], [.write(10)]], projected: true, writesBack: true, willChangeSink: false),
    // No `$x` yet: a write races the first `$x` subscriber; a write during whose callouts `$x` was
    // made starts over (it takes the turn and sends its value through `$x`).
    publishedScript([[.write(1)], [.project]], projected: false, willChangeSink: false),
    // No `$x` at all: two writes take no turn; objectWillChange fires once for each, before its store.
    publishedScript([[.write(1)], [.write(10)]], projected: false),
] }

enum PublishedOperation: Equatable, Sendable, CustomStringConvertible {
    /// `model.x = value`.
    case write(Int)
    /// `model.$x.sink { … }`: the first one makes `$property` (from the stored value).
    case project

    var description: String {
        switch self {
        case .write(let value): "x = \(value)"
        case .project: "$x.sink"
        }
    }
}

/// A real `ObservableObject` with one `@Published` property.
final class PublishedModel: ObservableObject, @unchecked Sendable {
    @Published var x = 0
}

/// `projected`: a `$x` subscriber from the start. `writesBack`: the first `$x` subscriber assigns
/// x = 101 from inside its delivery of 1 (made by a write, once). `willChangeSink`: an
/// `objectWillChange` sink counts the will-change events (without one, the publisher is still
/// linked, so every write is an observed one), `willChangeReads`: and reads the property in it;
/// `sinkReads`: each `$x` subscriber reads the property inside each delivery after its first — a
/// scheduling point inside the subscriber, and the order check. Each read is a scheduling point,
/// which multiplies the executions: a script turns off what another covers.
func publishedScript(
    _ threads: [[PublishedOperation]], projected: Bool, writesBack: Bool = false, willChangeSink: Bool = true,
    willChangeReads: Bool = true, sinkReads: Bool = true
) -> Script {
    let start = projected ? "$x subscribed" : "no $x yet"
    let back = writesBack ? ", its first subscriber writes 101 from inside its delivery of 1" : ""
    let described = threads.map { "[\($0.map(\.description).joined(separator: ", "))]" }.joined(separator: " ")
    let change = willChangeSink ? (willChangeReads ? "objectWillChange sink reading x" : "objectWillChange sink") : "objectWillChange linked"
    let reads = sinkReads ? "" : ", $x's subscriber does not read x"
    let name = "@Published (\(change), \(start)\(back)\(reads)): \(described)"
    return Script(name: name) { _ in
        let log = PublishedLog(name: name, writesBack: writesBack)
        log.willChangeReads = willChangeReads
        log.countsWillChange = willChangeSink
        log.sinkReads = sinkReads
        if willChangeSink {
            log.cancellables.append(log.model.objectWillChange.sink { [unowned log] in log.willChange() })
        } else {
            _ = log.model.objectWillChange  // linked: the property is observed
        }
        if projected { log.project() }
        let bodies: [@Sendable () -> Void] = threads.map { operations in
            {
                for operation in operations {
                    switch operation {
                    case .write(let value): log.write(value)
                    case .project: log.project()
                    }
                }
            }
        }
        return (bodies, { log.check() })
    }
}

/// What one execution of a `@Published` script recorded (written only by the running thread; a
/// plain counter orders the events).
final class PublishedLog: @unchecked Sendable {
    let model = PublishedModel()
    let name: String
    let writesBack: Bool
    var wroteBack = false
    var willChangeReads = true
    var countsWillChange = true
    var sinkReads = true
    var clock = 0
    var violations: [String] = []
    var cancellables: [AnyCancellable] = []
    /// Per thread: the writes under way on it (a nested one on top).
    var pending: [pthread_t: [Int]] = [:]
    var writeStart: [Int: Int] = [:]
    var writeEnd: [Int: Int] = [:]
    /// Per value: how many times `objectWillChange` fired for its write, and when (the last time).
    var willChanges: [Int: Int] = [:]
    var willChangeAt: [Int: Int] = [:]

    struct Delivery {
        let value: Int
        /// How deep inside this subscriber's own calls on its thread (1: nested).
        let depth: Int
        /// What the property held when the value arrived.
        let held: Int
        let at: Int
    }

    final class Sink {
        var subscribeEnd = Int.max
        var got: [Delivery] = []
        var depth = 0
        var owner: pthread_t?
    }

    var sinks: [Sink] = []

    init(name: String, writesBack: Bool) {
        self.name = name
        self.writesBack = writesBack
    }

    func tick() -> Int {
        clock += 1
        return clock
    }

    func write(_ value: Int) {
        let me = pthread_self()
        writeStart[value] = tick()
        pending[me, default: []].append(value)
        model.x = value
        pending[me]!.removeLast()
        writeEnd[value] = tick()
    }

    /// Subscribes a sink to `$x` (the first makes the subject, seeded with the stored value).
    func project() {
        let index = sinks.count
        let sink = Sink()
        sinks.append(sink)
        let cancellable = model.$x.sink { [unowned self] value in delivered(index, value) }
        cancellables.append(cancellable)
        sink.subscribeEnd = tick()
    }

    func delivered(_ index: Int, _ value: Int) {
        let me = pthread_self()
        let sink = sinks[index]
        if sink.depth > 0, let owner = sink.owner, pthread_equal(owner, me) == 0 {
            violations.append("two threads inside $x's subscriber \(index) at once (value \(value))")
        }
        sink.depth += 1
        sink.owner = me
        let at = tick()
        // A scheduling point inside the subscriber (not for its first value, the current one, which
        // the order check skips).
        let held = sinkReads && !sink.got.isEmpty ? model.x : -1
        sink.got.append(Delivery(value: value, depth: sink.depth - 1, held: held, at: at))
        if sink.got.count > 40 {
            // A write that delivers its value again and again never ends: stop at once.
            print("VIOLATION in \"\(name)\" (stopped inside an execution): $x's subscriber \(index) got more than 40 values: \(sink.got.prefix(6).map(\.value))…")
            exit(1)
        }
        if index == 0, writesBack, !wroteBack, value == 1, !(pending[me] ?? []).isEmpty {
            wroteBack = true
            write(value + 100)  // nested: from inside this write's delivery
        }
        sink.depth -= 1
    }

    func willChange() {
        let me = pthread_self()
        guard let value = pending[me]?.last else {
            violations.append("objectWillChange fired on a thread with no write under way")
            return
        }
        willChanges[value, default: 0] += 1
        willChangeAt[value] = tick()
        if willChangeReads, model.x == value { violations.append("objectWillChange for x = \(value) fired after the store") }
    }

    func check() -> String? {
        if let first = violations.first { return first }
        let written = Set(writeStart.keys)
        for value in written.sorted() {
            if writeEnd[value] == nil { return "x = \(value) never returned" }
            let fired = willChanges[value, default: 0]
            if countsWillChange, fired != 1 { return "objectWillChange fired \(fired) times for x = \(value)" }
        }
        if let stray = willChanges.keys.first(where: { !written.contains($0) }) { return "objectWillChange for \(stray), never written" }
        for (index, sink) in sinks.enumerated() {
            let values = sink.got.map(\.value)
            if sink.got.isEmpty { return "$x's subscriber \(index) never got the current value" }
            for value in Set(values) where values.filter({ $0 == value }).count > 1 {
                return "$x's subscriber \(index) got \(value) twice: \(values)"
            }
            for value in values where value != 0 && !written.contains(value) {
                return "$x's subscriber \(index) got \(value), never written: \(values)"
            }
            for value in written.sorted() where writeStart[value]! > sink.subscribeEnd && !values.contains(value) {
                return "$x's subscriber \(index) never got \(value) (written after it subscribed): \(values)"
            }
            for delivery in sink.got where willChangeAt[delivery.value].map({ $0 > delivery.at }) ?? false {
                return "$x's subscriber \(index) got \(delivery.value) before objectWillChange fired for it"
            }
        }
        let held = model.x
        if let sink = sinks.first {
            // The order: each delivery (after the current value) finds the previous one stored.
            var previous: Delivery?
            var outer: Delivery?
            for delivery in sink.got {
                if delivery.depth == 0 {
                    if sinkReads, let previous, delivery.held != previous.value {
                        return "$x's subscriber got \(delivery.value) while x held \(delivery.held), not \(previous.value) (the value it got before): \(sink.got.map(\.value))"
                    }
                    previous = delivery
                    outer = delivery
                } else if sinkReads, let outer, delivery.held != outer.held {
                    return "a nested delivery of \(delivery.value) found x = \(delivery.held), not \(outer.held) as its enclosing one"
                }
            }
            if let previous, previous.value != held {
                return "x holds \(held) but $x's subscriber last got \(previous.value): \(sink.got.map(\.value))"
            }
        }
        // What a new subscriber starts from ($x's current value) is what the property holds.
        var current: Int?
        let fresh = model.$x.sink { if current == nil { current = $0 } }
        fresh.cancel()
        if current != held { return "x holds \(held) but $x's current value is \(current.map(String.init) ?? "none")" }
        return nil
    }
}
