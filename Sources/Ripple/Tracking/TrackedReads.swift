/// A tracked property a closure read: which object, and the property's name when known.
public struct TrackedRead: @unchecked Sendable, CustomStringConvertible {
    /// The object the property belongs to.
    public let object: AnyObject
    /// The property's name (`apples`), when known.
    public let propertyName: String?

    public var description: String { "\(type(of: object)).\(propertyName ?? "?")" }
}

/// Runs `body` and returns what it returned together with the tracked properties it read, in the
/// order first read (each once).
///
/// ```swift
/// let (_, reads) = trackedReads { basket.apples + 1 }
/// print(reads)   // [Basket.apples]
/// ```
///
/// The reads are not reported to an enclosing tracking scope, and nothing is observed: this only
/// looks (what `RippleTesting` uses to assert which properties a closure depends on).
public func trackedReads<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> (result: T, reads: [TrackedRead]) {
    try withAccesses(reportingToOuterScope: false, body) { (result, accesses) throws(E) in
        (
            result,
            accesses.filter { !$0.isExternal }.map {
                TrackedRead(object: $0.object, propertyName: $0.tracker.identity?.name)
            }
        )
    }
}
