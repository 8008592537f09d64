/// The properties a tracking scope read, with the version each had when it was read.
final class AccessCollector {
    struct Access {
        let tracker: PropertyTracker
        let version: UInt64
        /// The object the property belongs to (kept until the scope's observer is armed).
        let object: AnyObject
    }

    var accesses: [Access] = []

    func record(_ tracker: PropertyTracker, version: UInt64, object: AnyObject) {
        // Repeated reads of one property are common (loops, computed properties); keep one entry,
        // with the oldest version seen — the conservative one.
        if accesses.contains(where: { $0.tracker === tracker }) { return }
        accesses.append(Access(tracker: tracker, version: version, object: object))
    }
}

/// Runs `body` with a fresh collector installed on this thread and returns what it read.
/// Nested scopes also report their reads to the enclosing scope, as in Observation.
func collectAccesses<T>(_ body: () throws -> T) rethrows -> (T, [AccessCollector.Access]) {
    let collector = AccessCollector()
    let outer = ThreadLocalCollector.current
    ThreadLocalCollector.current = collector
    openTrackingScopes.add(1, ordering: .relaxed)
    defer {
        openTrackingScopes.subtract(1, ordering: .relaxed)
        ThreadLocalCollector.current = outer
        if let outer {
            for access in collector.accesses {
                outer.record(access.tracker, version: access.version, object: access.object)
            }
        }
    }
    let result = try body()
    return (result, collector.accesses)
}
