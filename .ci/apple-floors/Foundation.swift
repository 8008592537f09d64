// For .ci/check-apple-floors only: the part of Apple's Foundation (and of the Darwin overlay) that
// RippleObservation uses — all of it on every system Ripple supports, `FileHandle.close()` from
// macOS 10.15 — so it can be type-checked for Apple targets without an Apple SDK.
@_exported import Darwin

public class NSLock: @unchecked Sendable {
    public init() {}
    public func lock() {}
    public func unlock() {}
    public func withLock<R>(_ body: () throws -> R) rethrows -> R { try body() }
}
extension StringProtocol {
    public func range<T: StringProtocol>(of other: T) -> Range<Index>? { nil }
}
public struct Data: RandomAccessCollection, Hashable, Sendable {
    public init() {}
    public var startIndex: Int { 0 }
    public var endIndex: Int { 0 }
    public subscript(position: Int) -> UInt8 { 0 }
}
public class FileHandle {
    public init?(forReadingAtPath path: String) {}
    public func readDataToEndOfFile() -> Data { Data() }
    @available(macOS 10.15, iOS 13.0, tvOS 13.0, watchOS 6.0, *)
    public func close() throws {}
}
// From the Darwin overlay.
public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32) -> Int32 { -1 }
public var errno: Int32 { 0 }
public let MAP_FAILED: UnsafeMutableRawPointer? = UnsafeMutableRawPointer(bitPattern: -1)
