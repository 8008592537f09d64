// For .ci/check-apple-floors only: the part of Apple's Dispatch that Ripple's core uses (all of it
// available since macOS 10.10), so the core can be type-checked for macOS without an Apple SDK.
public struct DispatchTime: Sendable {
    public let uptimeNanoseconds: UInt64
    public init(uptimeNanoseconds: UInt64) { self.uptimeNanoseconds = uptimeNanoseconds }
    public static func now() -> DispatchTime { DispatchTime(uptimeNanoseconds: 0) }
}
public enum DispatchTimeInterval: Equatable, Sendable {
    case seconds(Int), milliseconds(Int), microseconds(Int), nanoseconds(Int), never
}
public struct DispatchQoS: Equatable, Sendable {
    public enum QoSClass: Sendable { case background, utility, `default`, userInitiated, userInteractive, unspecified }
    public static let unspecified = DispatchQoS()
}
public struct DispatchWorkItemFlags: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
}
public class DispatchGroup: @unchecked Sendable {}
public class DispatchObject: @unchecked Sendable {
    public func resume() {}
}
public class DispatchQueue: DispatchObject, @unchecked Sendable {
    public init(label: String) {}
    public static let main = DispatchQueue(label: "")
    public static func global(qos: DispatchQoS.QoSClass = .default) -> DispatchQueue { main }
    public func async(
        group: DispatchGroup? = nil, qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [],
        execute work: @escaping @Sendable @convention(block) () -> Void
    ) {}
    public func asyncAfter(
        deadline: DispatchTime, qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [],
        execute work: @escaping @Sendable @convention(block) () -> Void
    ) {}
    public func sync<T>(execute work: () throws -> T) rethrows -> T { try work() }
}
public protocol DispatchSourceTimer: AnyObject {
    func setEventHandler(qos: DispatchQoS, flags: DispatchWorkItemFlags, handler: (@Sendable @convention(block) () -> Void)?)
    func schedule(deadline: DispatchTime, repeating interval: DispatchTimeInterval, leeway: DispatchTimeInterval)
    func resume()
    func cancel()
}
public enum DispatchSource {
    public static func makeTimerSource(flags: UInt = 0, queue: DispatchQueue? = nil) -> any DispatchSourceTimer {
        fatalError()
    }
}
