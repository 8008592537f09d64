#if !(canImport(Darwin) || RIPPLE_PORTABLE_ATOMICS)
import Synchronization  // AtomicCell is Synchronization.Atomic here (Sync/AtomicCell.swift)
#endif

// What the subscribe paths record while diagnostics are on. Ripple's `RippleDiagnostics` switches
// the recording on and turns these records into its public values (`LiveSubscription`,
// `PublisherNode`).

/// Whether subscriptions made now are recorded: the only thing the subscribe paths read when
/// diagnostics are off (one relaxed load). Written by ``SubscriptionRegistry`` under its lock.
@usableFromInline
let diagnosticsSwitch = AtomicCell<Bool>(false)

/// Whether `RippleDiagnostics` records subscriptions: one relaxed load.
@inlinable @inline(__always)
var diagnosticsAreOn: Bool {
    diagnosticsSwitch.load(ordering: .relaxed)
}

/// A publisher in a recorded chain (`RippleDiagnostics.PublisherNode` in Ripple): its name, the
/// object it is if it is a class, and the publishers it subscribes to.
package struct RecordedPublisher: Sendable {
    package let name: String
    package let object: ObjectIdentifier?
    package let upstreams: [RecordedPublisher]

    init(name: String, object: ObjectIdentifier? = nil, upstreams: [RecordedPublisher] = []) {
        self.name = name
        self.object = object
        self.upstreams = upstreams
    }

    /// The node for `publisher`, walking its upstreams through its mirror.
    package static func of(_ publisher: Any) -> RecordedPublisher {
        var budget = 256
        return make(publisher, depth: 0, budget: &budget)
    }

    private static func make(_ publisher: Any, depth: Int, budget: inout Int) -> RecordedPublisher {
        budget -= 1
        let type = type(of: publisher)
        let name = shortName(of: type)
        // A class publisher is not looked into through a mirror: reading its stored properties
        // could race with its own lock. Those whose upstreams are constants say so.
        if type is AnyClass {
            let object = (publisher as? any DiagnosticSource)?.diagnosticIdentity
            var upstreams: [RecordedPublisher] = []
            // (A subject has none: no need to ask.)
            if object == nil, depth < 64 && budget > 0, let node = publisher as? any DiagnosticUpstreams {
                for upstream in node.diagnosticUpstreams {
                    upstreams.append(make(upstream, depth: depth + 1, budget: &budget))
                }
            }
            return RecordedPublisher(
                name: name, object: object ?? ObjectIdentifier(publisher as AnyObject), upstreams: upstreams)
        }
        var upstreams: [RecordedPublisher] = []
        if depth < 64 && budget > 0 {
            for child in Mirror(reflecting: publisher).children where child.value is any Publisher {
                upstreams.append(make(child.value, depth: depth + 1, budget: &budget))
            }
        }
        return RecordedPublisher(name: name, upstreams: upstreams)
    }

    /// "RippleCore.Publishers.Map<…>" → "Map", "RippleCore.Published<Swift.Int>.Publisher" →
    /// "Published.Publisher".
    static func shortName(of type: Any.Type) -> String {
        let key = ObjectIdentifier(type)
        if let name = shortNames.withLock({ $0[key] }) { return name }
        let name = makeShortName(of: type)
        shortNames.withLock { $0[key] = name }
        return name
    }

    /// ``shortName(of:)`` of the types seen so far (`String(reflecting:)` is most of the cost
    /// of recording a subscription).
    private static let shortNames = LockedValue<[ObjectIdentifier: String]>([:])

    private static func makeShortName(of type: Any.Type) -> String {
        var plain = ""
        var depth = 0
        for character in String(reflecting: type) {
            switch character {
            case "<": depth += 1
            case ">": depth -= 1
            default: if depth == 0 { plain.append(character) }
            }
        }
        var parts = plain.split(separator: ".").filter { !$0.hasPrefix("(") }
        if parts.count > 1 { parts.removeFirst() }  // the module
        if parts.count > 1 && parts[0] == "Publishers" { parts.removeFirst() }
        return parts.joined(separator: ".")
    }
}

/// Where a recorded subscription stands (`RippleDiagnostics.LiveSubscription.Status` in Ripple).
package enum RecordedStatus: Sendable, Hashable {
    case active
    case finished
    case failed(String)
}

/// A recorded subscription as it was when a snapshot was taken
/// (`RippleDiagnostics.LiveSubscription` in Ripple).
package struct RecordedSubscription: Sendable {
    package let id: Int
    package let publisher: RecordedPublisher
    package let subscriber: String
    package let demand: Subscribers.Demand?
    package let valuesDelivered: Int?
    package let status: RecordedStatus
    package let lastDeliveryThread: UInt?
}

/// How the subscribe paths record subscriptions for `RippleDiagnostics` (in Ripple), which reads
/// them back from the ``SubscriptionRegistry``.
@usableFromInline
enum DiagnosticsRecording {
    /// Records a `sink` on `publisher` and gives `attach` closures that count values and end the
    /// record when the sink lets them go.
    static func recordSink<P: Publisher>(
        on publisher: P, receiveCompletion: ((Subscribers.Completion<P.Failure>) -> Void)?,
        receiveValue: @escaping (P.Output) -> Void,
        attach: (SubscriptionProbe, ((Subscribers.Completion<P.Failure>) -> Void)?, @escaping (P.Output) -> Void) -> AnyCancellable
    ) -> AnyCancellable {
        let probe = SubscriptionRegistry.shared.registerSink(publisher: .of(publisher))
        return attach(probe, receiveCompletion.map(probe.counting), probe.counting(receiveValue))
    }

    /// `subscribe(_:)` of any subscriber, recorded — never wrapped or replaced: what the
    /// publisher and the subscriber see is the same as with diagnostics off. Reached only while
    /// diagnostics are on, from the public `subscribe` (Ripple's operators subscribe upstream with
    /// `receive(subscriber:)`, which records nothing).
    ///
    /// An ``AnySubscriber`` is recorded as the subscriber it wraps. A class subscriber is looked at
    /// through a weak reference: alive while the object is, and, for Ripple's own (`Sink`,
    /// `Assign`, a subject's forwarder), until it completes or is cancelled. A subscriber with no
    /// object (a struct, an `AnySubscriber` of closures) is not recorded: nothing tells when it
    /// ends. One already recorded (a `sink`'s, passed on by a publisher of the user's) is not
    /// recorded again.
    @usableFromInline
    static func recordSubscriber(_ subscriber: Any, on publisher: Any) {
        var subscriber = subscriber
        var unwrapping = 0
        while let erased = subscriber as? any DiagnosticWrapper, unwrapping < 64 {
            guard let wrapped = erased.diagnosticWrapped else { return }
            subscriber = wrapped
            unwrapping += 1
        }
        guard type(of: subscriber) is AnyClass else { return }
        let object = subscriber as AnyObject
        let name: String
        let demand: Subscribers.Demand?
        let isLive: @Sendable (AnyObject) -> Bool
        if let known = subscriber as? any DiagnosedSubscriber {
            name = known.diagnosticName
            demand = known.diagnosticDemand
            isLive = { ($0 as? any DiagnosedSubscriber)?.diagnosticIsSubscribed ?? false }
        } else {
            name = RecordedPublisher.shortName(of: type(of: subscriber))
            demand = nil
            isLive = { _ in true }
        }
        SubscriptionRegistry.shared.registerUnlessRecorded(
            publisher: .of(publisher), subscriber: name, demand: demand, object: object, isLive: isLive)
    }

    /// Records a subscriber that is looked at through a weak reference (`assign`): `isLive` says
    /// whether it is still subscribed. Reached only while diagnostics are on.
    static func recordObject<P: Publisher>(
        on publisher: P, subscriber: AnyObject, description: String, isLive: @escaping @Sendable (AnyObject) -> Bool
    ) {
        _ = SubscriptionRegistry.shared.register(
            publisher: .of(publisher), subscriber: description, demand: .unlimited, countsValues: false,
            object: subscriber, isLive: isLive)
    }
}

/// One of Ripple's subscribers whose end is known without wrapping it: `RippleDiagnostics` shows
/// it until it completes or is cancelled, not only until it is released.
protocol DiagnosedSubscriber: AnyObject {
    /// What the registry calls it: "Sink", "Assign Model.", the subject's type.
    var diagnosticName: String { get }
    /// The demand it keeps outstanding, where it is fixed (`.unlimited` for `Sink` and `Assign`).
    var diagnosticDemand: Subscribers.Demand? { get }
    /// Whether it is still subscribed (takes the subscriber's lock).
    var diagnosticIsSubscribed: Bool { get }
}

/// A type-erasing subscriber: `RippleDiagnostics` records the one it wraps (`nil` for closures).
protocol DiagnosticWrapper {
    var diagnosticWrapped: Any? { get }
}

/// A class publisher whose upstreams are constants (`share()`, `multicast`, `autoconnect()`):
/// read without its lock, so that a recorded chain goes on above it.
protocol DiagnosticUpstreams: AnyObject {
    var diagnosticUpstreams: [Any] { get }
}

/// A publisher whose identity in `RippleDiagnostics`' graphs is an object of its own (a subject's
/// storage), the same one its conduits report, so that both ways of subscribing meet in one node.
protocol DiagnosticSource {
    var diagnosticIdentity: ObjectIdentifier { get }
}

/// The scopes of `RippleDiagnostics.withRegistry(_:)` around the running code, innermost first.
package final class DiagnosticsScope: Sendable {
    /// The innermost scope around the running code. (The `TaskLocal` class itself rather than the
    /// `@TaskLocal` macro, which needs a compiler plugin.)
    package static let task = TaskLocal<DiagnosticsScope?>(wrappedValue: nil)

    /// The innermost scope around the running code, if any.
    static var current: DiagnosticsScope? { task.get() }

    package let id: Int
    let parent: DiagnosticsScope?

    init(id: Int, parent: DiagnosticsScope?) {
        self.id = id
        self.parent = parent
    }

    /// This scope's ID and its parents'.
    var ids: [Int] {
        var ids: [Int] = []
        var scope: DiagnosticsScope? = self
        while let current = scope {
            ids.append(current.id)
            scope = current.parent
        }
        return ids
    }
}
