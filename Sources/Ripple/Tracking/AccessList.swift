/// The properties a tracking scope read, with the version each had when it was read.
///
/// The collector owns one reference to each entry's tracker and object — taken in `record`, given
/// back in `reset` — so an ``Access`` is a plain value: copying or iterating entries touches no
/// reference counts (two atomic operations per reference saved on every pass). An `Access` is
/// valid until its collector is reset.
final class AccessCollector {
    struct Access {
        let trackerReference: Unmanaged<PropertyTracker>
        let version: UInt64
        /// The object the property belongs to (kept until the scope's observer is armed).
        let objectReference: Unmanaged<AnyObject>

        var tracker: PropertyTracker { trackerReference.takeUnretainedValue() }
        var object: AnyObject { objectReference.takeUnretainedValue() }

        /// Whether this entry is `tracker`'s (a pointer comparison: no reference is made).
        func isOf(_ tracker: PropertyTracker) -> Bool {
            trackerReference.toOpaque() == Unmanaged.passUnretained(tracker).toOpaque()
        }
    }

    /// Touched only by the thread whose scope this is.
    @exclusivity(unchecked) private(set) var accesses: [Access] = []

    deinit {
        reset()
    }

    /// Records a read; returns `false` when this property was already recorded in this scope.
    @discardableResult
    func record(_ tracker: PropertyTracker, version: UInt64, object: AnyObject) -> Bool {
        // Repeated reads of one property are common (loops, computed properties); keep one entry,
        // with the oldest version seen — the conservative one. The last entry is the likeliest hit.
        if let last = accesses.last, last.isOf(tracker) { return false }
        if accesses.contains(where: { $0.isOf(tracker) }) { return false }
        accesses.append(
            Access(
                trackerReference: Unmanaged.passRetained(tracker), version: version,
                objectReference: Unmanaged.passRetained(object)))
        return true
    }

    /// Releases every entry and empties the list, keeping its buffer.
    func reset() {
        for access in accesses {
            access.trackerReference.release()
            access.objectReference.release()
        }
        accesses.removeAll(keepingCapacity: true)
    }
}

/// Runs `body` with a collector installed on this thread, then hands what it read to `consume`
/// while the collector still owns it — so the per-thread collector is reused, buffer and all.
/// Nested scopes also report their reads to the enclosing scope, as in Observation.
func withAccesses<T, R>(
    reportingToOuterScope: Bool = true, _ body: () throws -> T,
    consume: (T, [AccessCollector.Access]) throws -> R
) rethrows -> R {
    try TrackingThread.withCurrentThread { thread in
        let collector = thread.takeSpare()
        let outer = thread.current
        thread.current = Unmanaged.passUnretained(collector)
        openTrackingScopes.add(1, ordering: .relaxed)
        let result: T
        do {
            result = try body()
        } catch {
            closeScope(collector, thread: thread, outer: outer, reportingToOuterScope: reportingToOuterScope)
            collector.reset()
            thread.putSpare(collector)
            throw error
        }
        // The scope is closed before `consume` runs: arming may fire an observer at once, and
        // whatever that runs (user code, a re-run of `observe`) must not be recorded in this scope.
        closeScope(collector, thread: thread, outer: outer, reportingToOuterScope: reportingToOuterScope)
        defer {
            collector.reset()
            thread.putSpare(collector)
        }
        return try consume(result, collector.accesses)
    }
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
