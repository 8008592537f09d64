#if canImport(Dispatch)
import Dispatch  // the monotonic clock (see `monotonicNanoseconds()`)
#endif

extension RippleDiagnostics {
    /// A recording of what ``Publisher/trace(_:to:)`` operators saw — subscribe, request, value,
    /// completion, cancel, each with its thread and time — exported as Chrome trace-event JSON, which
    /// Perfetto (ui.perfetto.dev) and `chrome://tracing` open with one track per subscription.
    ///
    /// ```swift
    /// let timeline = RippleDiagnostics.Timeline()
    /// let cancellable = [1, 2].publisher.trace("numbers", to: timeline).sink { _ in }
    /// print(timeline.events.map(\.kind))
    /// // Prints "[subscribe, request unlimited, value 1, value 2, finished]"
    /// let json = timeline.chromeTraceJSON()  // write it to a .json file and open it in Perfetto
    /// _ = (cancellable, json)
    /// ```
    ///
    /// Thread-safe; events from many threads are kept in the order they were recorded.
    public final class Timeline: Sendable {
        /// What happened.
        public enum Kind: Sendable, Hashable, CustomStringConvertible {
            /// The subscriber subscribed.
            case subscribe
            /// The subscriber asked for more (`synchronous` when returned from `receive(_:)`).
            case request(Subscribers.Demand, synchronous: Bool)
            /// A value went downstream, described.
            case value(String)
            /// The publisher finished.
            case finished
            /// The publisher failed, with the error described.
            case failure(String)
            /// The subscriber cancelled.
            case cancel

            /// "subscribe", "request unlimited", "request 2 (synchronous)", "value 1", "finished",
            /// "failure: …", "cancel".
            public var description: String {
                switch self {
                case .subscribe: return "subscribe"
                case .request(let demand, let synchronous):
                    return "request " + LiveSubscription.describe(demand) + (synchronous ? " (synchronous)" : "")
                case .value(let value): return "value " + value
                case .finished: return "finished"
                case .failure(let error): return "failure: " + error
                case .cancel: return "cancel"
                }
            }

            /// Whether it ends the subscription's track.
            var isEnd: Bool {
                switch self {
                case .finished, .failure, .cancel: return true
                default: return false
                }
            }
        }

        /// One recorded event.
        public struct Event: Sendable, Hashable {
            /// The name given to `trace(_:to:)`.
            public let name: String
            /// The subscription, numbered in the order subscriptions were traced in this timeline
            /// (from 1): one track of the exported trace.
            public let subscription: Int
            /// What happened.
            public let kind: Kind
            /// The thread it happened on (a number that identifies it while it runs).
            public let thread: UInt
            /// Nanoseconds since the timeline was created, on a monotonic clock.
            public let time: UInt64
        }

        private struct State {
            var events: [Event] = []
            var subscriptions = 0
        }

        private let state = LockedValue(State())
        private let start: UInt64

        /// The timeline `trace(_:)` records to when given none.
        public static let shared = Timeline()

        /// Creates an empty timeline; its clock starts now.
        public init() {
            start = monotonicNanoseconds()
        }

        /// Every event recorded, in order.
        public var events: [Event] {
            state.withLock { $0.events }
        }

        /// Forgets every event recorded (subscriptions keep their numbers).
        public func removeAll() {
            let removed = state.withLock { state -> [Event] in
                defer { state.events = [] }
                return state.events
            }
            withExtendedLifetime(removed) {}
        }

        /// A number for a new subscription's track.
        func newSubscription() -> Int {
            state.withLock { state in
                state.subscriptions += 1
                return state.subscriptions
            }
        }

        /// Records `kind` for `subscription` (described by the caller beforehand: a description is
        /// user code, not run under the lock).
        func record(_ kind: Kind, name: String, subscription: Int) {
            let thread = currentThreadID()
            state.withLock { state in
                // The clock is read under the lock, so the order of the events is the order of their times.
                let now = monotonicNanoseconds()
                let time = now > start ? now - start : 0
                state.events.append(Event(name: name, subscription: subscription, kind: kind, thread: thread, time: time))
            }
        }

        /// The events in the Chrome trace-event format (a JSON object with `traceEvents`): each
        /// subscription is a track (`tid`) named after its `trace` and number, spanning from
        /// subscribe to its completion or cancel, with requests and values as instant events; the
        /// thread of each event is in its `args`. Times (`ts`) are in microseconds.
        ///
        /// Open the file in Perfetto's UI (ui.perfetto.dev) or `chrome://tracing`.
        public func chromeTraceJSON() -> String {
            let events = self.events
            var lines: [String] = []
            lines.append(
                #"{"name":"process_name","ph":"M","ts":0,"pid":1,"tid":0,"args":{"name":"Ripple"}}"#)
            var named = Set<Int>()
            var open = Set<Int>()
            var lastTime: [Int: UInt64] = [:]
            for event in events {
                let track = event.subscription
                if named.insert(track).inserted {
                    let title = Self.jsonString("\(event.name) #\(track)")
                    lines.append(#"{"name":"thread_name","ph":"M","ts":0,"pid":1,"tid":\#(track),"args":{"name":\#(title)}}"#)
                    lines.append(#"{"name":"thread_sort_index","ph":"M","ts":0,"pid":1,"tid":\#(track),"args":{"sort_index":\#(track)}}"#)
                }
                lastTime[track] = event.time
                let ts = Self.microseconds(event.time)
                let thread = Self.jsonString("0x" + String(event.thread, radix: 16))
                let name = Self.jsonString(event.name)
                switch event.kind {
                case .subscribe:
                    open.insert(track)
                    lines.append(
                        #"{"name":\#(name),"cat":"subscription","ph":"B","ts":\#(ts),"pid":1,"tid":\#(track),"args":{"thread":\#(thread)}}"#)
                case let kind where kind.isEnd:
                    let what = Self.jsonString(kind.description)
                    lines.append(
                        #"{"name":\#(what),"cat":"event","ph":"i","s":"t","ts":\#(ts),"pid":1,"tid":\#(track),"args":{"thread":\#(thread)}}"#)
                    if open.remove(track) != nil {
                        lines.append(
                            #"{"name":\#(name),"cat":"subscription","ph":"E","ts":\#(ts),"pid":1,"tid":\#(track),"args":{"end":\#(what)}}"#)
                    }
                default:
                    let what = Self.jsonString(event.kind.description)
                    lines.append(
                        #"{"name":\#(what),"cat":"event","ph":"i","s":"t","ts":\#(ts),"pid":1,"tid":\#(track),"args":{"thread":\#(thread)}}"#)
                }
            }
            // Tracks still open end at their last event, so that viewers draw them.
            for track in open.sorted() {
                let ts = Self.microseconds(lastTime[track] ?? 0)
                lines.append(
                    #"{"name":"alive","cat":"subscription","ph":"E","ts":\#(ts),"pid":1,"tid":\#(track),"args":{"end":"still subscribed"}}"#)
            }
            return "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n" + lines.joined(separator: ",\n") + "\n]}\n"
        }

        /// Microseconds with three decimals, from nanoseconds.
        static func microseconds(_ nanoseconds: UInt64) -> String {
            let fraction = String(nanoseconds % 1000)
            return "\(nanoseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
        }

        /// `text` as a JSON string literal.
        static func jsonString(_ text: String) -> String {
            var quoted = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": quoted += "\\\""
                case "\\": quoted += "\\\\"
                case "\n": quoted += "\\n"
                case "\r": quoted += "\\r"
                case "\t": quoted += "\\t"
                case let control where control.value < 0x20:
                    let hex = String(control.value, radix: 16)
                    quoted += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: quoted.unicodeScalars.append(scalar)
                }
            }
            return quoted + "\""
        }
    }
}

/// Nanoseconds on a monotonic clock: Dispatch's uptime where there is Dispatch, the standard
/// library's continuous clock elsewhere (WASI).
func monotonicNanoseconds() -> UInt64 {
    #if canImport(Dispatch)
    return DispatchTime.now().uptimeNanoseconds
    #else
    let elapsed = clockReference.duration(to: .now).components
    return UInt64(elapsed.seconds) &* 1_000_000_000 &+ UInt64(elapsed.attoseconds / 1_000_000_000)
    #endif
}

#if !canImport(Dispatch)
/// Where ``monotonicNanoseconds()`` counts from without Dispatch: its first use.
private let clockReference = ContinuousClock.now
#endif
