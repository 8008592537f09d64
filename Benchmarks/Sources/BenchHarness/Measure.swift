import CMallocInfo

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Monotonic nanoseconds.
@inline(never)
public func nanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
}

/// The one function callgrind collects in (`--toggle-collect=ripple_bench_measured`): everything the
/// measured loop does, nothing of the setup.
@inline(never) @_silgen_name("ripple_bench_measured")
public func measuredRegion(_ run: (AnyObject) -> Void, _ prepared: AnyObject) {
    run(prepared)
}

/// Runs `prepare(n)` unmeasured, then `run` inside the measured region; returns elapsed nanoseconds.
public func runOnce(
    prepare: (Int) -> AnyObject, run: (AnyObject) -> Void, iterations: Int
) -> UInt64 {
    let prepared = prepare(iterations)
    let start = nanoseconds()
    measuredRegion(run, prepared)
    let elapsed = nanoseconds() - start
    withExtendedLifetime(prepared) {}
    return elapsed
}

/// An iteration count boxed as an object, so plain loops fit the `prepared` shape.
public final class Count {
    public let value: Int
    public init(_ value: Int) { self.value = value }
}

extension Scenario.Measure {
    /// Every timed measure as a prepare/run pair (`nil` for heap measures).
    public var preparedPair: (prepare: (Int) -> AnyObject, run: (AnyObject) -> Void)? {
        switch self {
        case .loop(let body):
            return ({ Count($0) }, { body(($0 as! Count).value) })
        case .prepared(let prepare, let run):
            return (prepare, run)
        case .heap:
            return nil
        }
    }
}

/// Bytes currently allocated by malloc (glibc's `mallinfo2`; `nil` elsewhere).
public func heapInUse() -> Int? {
    let bytes = ripple_heap_in_use()
    return bytes < 0 ? nil : Int(bytes)
}


/// Times several measures of the same scenario *interleaved*: each repetition runs every measure
/// once, so drift on a noisy machine hits all of them alike. Returns the median ns per operation.
public func timeInterleaved(
    _ measures: [(prepare: (Int) -> AnyObject, run: (AnyObject) -> Void, operationsPerIteration: Int)],
    repetitions: Int = 15, targetNanoseconds: UInt64 = 4_000_000
) -> [Double] {
    let sizes = measures.map { measure in
        calibrate(prepare: measure.prepare, run: measure.run, targetNanoseconds: targetNanoseconds)
    }
    var samples = Array(repeating: [Double](), count: measures.count)
    for _ in 0..<repetitions {
        for (index, measure) in measures.enumerated() {
            let elapsed = runOnce(prepare: measure.prepare, run: measure.run, iterations: sizes[index])
            samples[index].append(Double(elapsed) / Double(sizes[index] * measure.operationsPerIteration))
        }
    }
    return samples.map { $0.sorted()[$0.count / 2] }
}

/// An iteration count that makes one run take about `targetNanoseconds` (after warming up).
func calibrate(prepare: (Int) -> AnyObject, run: (AnyObject) -> Void, targetNanoseconds: UInt64) -> Int {
    var n = 16
    while true {
        let elapsed = runOnce(prepare: prepare, run: run, iterations: n)
        if elapsed >= targetNanoseconds / 4 || n >= 1 << 26 {
            let scale = Double(targetNanoseconds) / Double(max(elapsed, 1))
            return max(1, Int(Double(n) * min(scale, 64)))
        }
        n *= 4
    }
}

/// Heap bytes per instance: create `count` live instances and compare malloc's bookkeeping.
public func heapBytesPerInstance(_ make: (Int) -> AnyObject, count: Int = 10_000) -> Double? {
    guard let before = heapInUse() else { return nil }
    let kept = make(count)
    guard let after = heapInUse() else { return nil }
    withExtendedLifetime(kept) {}
    return Double(after - before) / Double(count)
}
