/// Traps with `message` when `condition` is false — in optimized builds too.
///
/// Ripple's misuse traps (zero or negative demand, a negative count, a value recorded after
/// completion, …) use this instead of `precondition`, whose message an optimized (`-O`) build
/// drops: a release build would stop on a bare "Illegal instruction" with no hint of the cause.
/// `fatalError` keeps its message at every optimization level but `-Ounchecked`. `.ci/run` checks
/// that no `precondition` is left in `Sources/`.
@inlinable @inline(__always)
package func require(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
    file: StaticString = #fileID, line: UInt = #line
) {
    if _slowPath(!condition()) {
        fatalError(message(), file: file, line: line)
    }
}
