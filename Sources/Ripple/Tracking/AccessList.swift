/// The properties a tracking scope read, with the version each had when it was read.
final class AccessCollector {
    struct Access {
        let tracker: PropertyTracker
        let version: UInt64
        /// The object the property belongs to (kept until the scope's observer is armed).
        let object: AnyObject
    }

    /// Touched only by the thread whose scope this is.
    @exclusivity(unchecked) var accesses: [Access] = []

    /// Records a read; returns `false` when this property was already recorded in this scope.
    @discardableResult
    func record(_ tracker: PropertyTracker, version: UInt64, object: AnyObject) -> Bool {
        // Repeated reads of one property are common (loops, computed properties); keep one entry,
        // with the oldest version seen — the conservative one. The last entry is the likeliest hit.
        if let last = accesses.last, last.tracker === tracker { return false }
        if accesses.contains(where: { $0.tracker === tracker }) { return false }
        accesses.append(Access(tracker: tracker, version: version, object: object))
        return true
    }
}

/// Runs `body` with a collector installed on this thread, then hands what it read to `consume`
/// while the collector still owns it — so the per-thread collector is reused, buffer and all.
/// Nested scopes also report their reads to the enclosing scope, as in Observation.
func withAccesses<T, R>(
    reportingToOuterScope: Bool = true, _ body: () throws -> T,
    consume: (T, [AccessCollector.Access]) throws -> R
) rethrows -> R {
    let thread = TrackingThread.forCurrentThread
    let collector = thread.takeSpare()
    let outer = thread.current
    thread.current = Unmanaged.passUnretained(collector)
    openTrackingScopes.add(1, ordering: .relaxed)
    defer {
        collector.accesses.removeAll(keepingCapacity: true)
        thread.putSpare(collector)
    }
    let result: T
    do {
        result = try body()
    } catch {
        closeScope(collector, thread: thread, outer: outer, reportingToOuterScope: reportingToOuterScope)
        throw error
    }
    // The scope is closed before `consume` runs: arming may fire an observer at once, and whatever
    // that runs (user code, a re-run of `observe`) must not be recorded in this scope.
    closeScope(collector, thread: thread, outer: outer, reportingToOuterScope: reportingToOuterScope)
    return try consume(result, collector.accesses)
}

private func closeScope(
    _ collector: AccessCollector, thread: TrackingThread, outer: Unmanaged<AccessCollector>?,
    reportingToOuterScope: Bool
) {
    openTrackingScopes.subtract(1, ordering: .relaxed)
    thread.current = outer
    if reportingToOuterScope, let outer {
        outer._withUnsafeGuaranteedRef { outer in
            for access in collector.accesses {
                outer.record(access.tracker, version: access.version, object: access.object)
            }
        }
    }
}

/// Runs `body` in a tracking scope and returns what it read (a copy, for callers that keep it).
func collectAccesses<T>(
    reportingToOuterScope: Bool = true, _ body: () throws -> T
) rethrows -> (T, [AccessCollector.Access]) {
    try withAccesses(reportingToOuterScope: reportingToOuterScope, body) { ($0, $1) }
}
