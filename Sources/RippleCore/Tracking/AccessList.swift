import RippleTrackingTypes  // TrackingPhase (not re-exported: Ripple's, not Combine's)

/// The properties a tracking scope read, with the version each had when it was read.
///
/// The collector owns one reference to each entry's tracker and object — taken in `record`, given
/// back in `reset` — so an ``Access`` is a plain value: copying or iterating entries touches no
/// reference counts (two atomic operations per reference saved on every pass). An `Access` is
/// valid until its collector is reset.
///
/// Recording is O(1) per read: a scope with few entries searches them (cheaper than hashing), and
/// one with more than ``linearLimit`` (32) keeps an index by tracker identity, so a scope with n reads
/// costs O(n), not O(n²).
package final class AccessCollector {
    package struct Access {
        let trackerReference: Unmanaged<PropertyTracker>
        var version: UInt64
        /// The object the property belongs to (kept until the scope's observer is armed). For an
        /// external system's reads (``ExternalTracker``) it is the tracker itself.
        let objectReference: Unmanaged<AnyObject>

        package var tracker: PropertyTracker { trackerReference.takeUnretainedValue() }
        package var object: AnyObject { objectReference.takeUnretainedValue() }

        /// Whether this entry is `tracker`'s (a pointer comparison: no reference is made).
        package func isOf(_ tracker: PropertyTracker) -> Bool {
            trackerReference.toOpaque() == Unmanaged.passUnretained(tracker).toOpaque()
        }

        /// Whether the entry stands for another observation system's reads: an ``ExternalTracker``,
        /// the only tracker recorded as its own object (every other belongs to the object read). A
        /// pointer comparison. Only the observers armed on such a tracker keep it alive (its system
        /// holds it weakly).
        package var isExternal: Bool { trackerReference.toOpaque() == objectReference.toOpaque() }
    }

    /// Entries beyond which lookups go through `index`.
    static let linearLimit = 32

    /// Touched only by the thread whose scope this is.
    @exclusivity(unchecked) package private(set) var accesses: [Access] = []
    /// Entry positions by tracker, kept once there are more than ``linearLimit`` entries.
    @exclusivity(unchecked) private var index: [UnsafeMutableRawPointer: Int] = [:]
    /// The enclosing scope's collector on the same thread, while this one is open (a scope's own
    /// writes are absorbed by every open scope: see ``absorbOwnWrite(of:newVersion:)``).
    @exclusivity(unchecked) var outer: Unmanaged<AccessCollector>?

    deinit {
        reset()
    }

    /// The position of `tracker`'s entry, if it has one.
    private func position(of tracker: PropertyTracker) -> Int? {
        if accesses.count <= Self.linearLimit {
            return accesses.firstIndex { $0.isOf(tracker) }
        }
        return index[Unmanaged.passUnretained(tracker).toOpaque()]
    }

    /// Records a read; returns `false` when this property was already recorded in this scope.
    @discardableResult
    package func record(_ tracker: PropertyTracker, version: UInt64, object: AnyObject) -> Bool {
        // Repeated reads of one property are common (loops, computed properties); keep one entry,
        // with the oldest version seen — the conservative one. The last entry is the likeliest hit.
        if let last = accesses.last, last.isOf(tracker) { return false }
        if position(of: tracker) != nil { return false }
        accesses.append(
            Access(
                trackerReference: Unmanaged.passRetained(tracker), version: version,
                objectReference: Unmanaged.passRetained(object)))
        if accesses.count > Self.linearLimit {
            if index.isEmpty {
                for (position, access) in accesses.enumerated() {
                    index[access.trackerReference.toOpaque()] = position
                }
            } else {
                index[Unmanaged.passUnretained(tracker).toOpaque()] = accesses.count - 1
            }
        }
        return true
    }

    /// A write this thread made to `tracker` while the scope is open, taking it from `newVersion - 1`
    /// to `newVersion`: the scope's entry moves along, so the scope's own writes never count as a
    /// change after its read (Observation's rule: what `apply` writes does not fire its `onChange`).
    /// A write another thread made in between leaves the entry alone, so that one still fires.
    func absorbOwnWrite(of tracker: PropertyTracker, newVersion: UInt64) {
        guard let position = position(of: tracker) else { return }
        if accesses[position].version &+ 1 == newVersion {
            accesses[position].version = newVersion
        }
    }

    /// Releases every entry and empties the list, keeping its buffer.
    func reset() {
        // By index: iterating the array itself would retain and release its buffer.
        for position in accesses.indices {
            accesses[position].trackerReference.release()
            accesses[position].objectReference.release()
        }
        accesses.removeAll(keepingCapacity: true)
        if !index.isEmpty { index.removeAll(keepingCapacity: true) }
    }
}

/// Runs `body` with a collector installed on this thread, then hands what it read to `consume`
/// while the collector still owns it — so the per-thread collector is reused, buffer and all.
/// Nested scopes also report their reads to the enclosing scope, as in Observation.
///
/// When another observation system is bridged in (``_ExternalTracking/installScopeHook(_:)``), a
/// scope that reports to its enclosing scope also runs `body` through the bridge, and what that
/// system saw read becomes one more entry. (Scopes that only look — `trackedReads`, `matches` — do
/// not: the other system cannot keep their reads from its own enclosing scopes.)
///
/// `phase` is the phase the reads' observer fires in (`nil`: not known, or both): the other
/// system then reports only that phase's changes.
package func withAccesses<T, R, E: Error>(
    reportingToOuterScope: Bool = true, phase: TrackingPhase? = nil, _ body: () throws(E) -> T,
    consume: (T, [AccessCollector.Access]) throws(E) -> R
) throws(E) -> R {
    let scope = TrackingScope(reportingToOuterScope: reportingToOuterScope, phase: phase)
    let result = try scope.run(body)
    defer { scope.recycle() }
    return try consume(result, scope.collector.accesses)
}

/// One open tracking scope on the calling thread: its collector, installed as the thread's
/// current one, and what to restore when it closes.
///
/// Generic code is kept to ``run(_:)``, and that small: `withTracking` and its kin are generic
/// functions their callers cannot specialize, so whatever they do generically (moving the result,
/// rethrowing the error) runs through runtime metadata. Opening, closing and recycling a scope do
/// not depend on the result's type.
package struct TrackingScope {
    let thread: Unmanaged<TrackingThread>
    package let collector: AccessCollector
    let outer: Unmanaged<AccessCollector>?
    let reportsToOuterScope: Bool
    /// The phase the scope's observer fires in, if known (another system reports only that one).
    let phase: TrackingPhase?

    /// Opens a scope: takes the thread's spare collector and makes it the current one.
    package init(reportingToOuterScope: Bool, phase: TrackingPhase? = nil) {
        let thread = TrackingThread.currentThread
        let collector = thread._withUnsafeGuaranteedRef { $0.takeSpare() }
        let outer = thread._withUnsafeGuaranteedRef { $0.current }
        collector.outer = outer
        thread._withUnsafeGuaranteedRef { $0.current = Unmanaged.passUnretained(collector) }
        openTrackingScopes.add(1, ordering: .relaxed)
        self.thread = thread
        self.collector = collector
        self.outer = outer
        self.reportsToOuterScope = reportingToOuterScope
        self.phase = phase
    }

    /// Runs `body` in the scope, then closes it — before the caller looks at what was read:
    /// arming may fire an observer at once, and whatever that runs (user code, a re-run of
    /// `observe`) must not be recorded in this scope. If `body` throws, the scope is also
    /// recycled.
    package func run<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        let result: T
        do throws(E) {
            if reportsToOuterScope, let hook = _ExternalTracking.scopeHook {
                result = try collectWithHook(hook, phase: phase, body, into: collector)
            } else {
                result = try body()
            }
        } catch {
            close()
            recycle()
            throw error
        }
        close()
        return result
    }

    /// Uninstalls the collector and reports its reads to the enclosing scope.
    func close() {
        openTrackingScopes.subtract(1, ordering: .relaxed)
        thread._withUnsafeGuaranteedRef { $0.current = outer }
        collector.outer = nil
        if reportsToOuterScope, let outer {
            outer._withUnsafeGuaranteedRef { outer in
                // Another system's reads are not passed on: it reports them to its own enclosing
                // scope, which the outer scope's entry for that system stands for.
                for access in collector.accesses where !access.isExternal {
                    outer.record(access.tracker, version: access.version, object: access.object)
                }
            }
        }
    }

    /// Empties the collector and keeps it as the thread's spare. After the reads were used.
    package func recycle() {
        collector.reset()
        thread._withUnsafeGuaranteedRef { $0.putSpare(collector) }
    }
}

/// Runs `body` through the external system's hook; what that system saw read becomes one entry.
private func collectWithHook<T, E: Error>(
    _ hook: any _ExternalScopeHook, phase: TrackingPhase?, _ body: () throws(E) -> T, into collector: AccessCollector
) throws(E) -> T {
    let (outcome, external) = hook.collectReads(reporting: phase) { () -> Result<T, E> in
        do throws(E) { return .success(try body()) } catch { return .failure(error) }
    }
    if let external {
        let tracker = external.activate()
        // Read at version 0: changes reported before the scope ended count as stale.
        collector.record(tracker, version: 0, object: tracker)
    }
    return try outcome.get()
}

extension PropertyTracker {
    /// Tells this thread's open scopes that it just took this property to `newVersion` (see
    /// ``AccessCollector/absorbOwnWrite(of:newVersion:)``). One relaxed load when no scope is open.
    @usableFromInline
    final func absorbOwnWrite(newVersion: UInt64) {
        guard openTrackingScopes.load(ordering: .relaxed) != 0 else { return }
        TrackingThread.withCurrentCollector { collector in
            var next = collector.map { Unmanaged.passUnretained($0) }
            while let current = next {
                next = current._withUnsafeGuaranteedRef { collector in
                    collector.absorbOwnWrite(of: self, newVersion: newVersion)
                    return collector.outer
                }
            }
        }
    }
}
