#if canImport(Testing)
import Testing

extension TimelineRecorder {
    /// Records a Swift Testing issue when the recording does not match `expected`; the issue's
    /// message shows both marble diagrams one above the other, and the test gets them drawn as an
    /// SVG image (``MarbleComparison/svg``) as an attachment.
    ///
    /// ```swift
    /// recorder.expectMarbles("-a--b-|", frame: .milliseconds(100))
    /// // Issue: Marble diagrams differ
    /// // expected: -a--b-|
    /// // actual:   -a---b|
    /// //               ^ frame 4
    /// ```
    ///
    /// - Returns: The comparison, whether or not it matched.
    @discardableResult
    public func expectMarbles(
        _ expected: String, frame: Clock.SchedulerTimeType.Stride, label: (Output) -> Character? = defaultMarbleLabel,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> MarbleComparison {
        let comparison = compare(toMarbles: expected, frame: frame, label: label)
        if !comparison.matches {
            Issue.record("Marble diagrams differ\n\(comparison)", sourceLocation: sourceLocation)
            Attachment.record(comparison.svg, named: "marbles.svg", sourceLocation: sourceLocation)
        }
        return comparison
    }
}

extension TimelineRecorder where Output: Equatable {
    /// Records a Swift Testing issue when the recording does not match `expected`, whose letters
    /// stand for the values in `values`; the message shows both diagrams one above the other.
    @discardableResult
    public func expectMarbles(
        _ expected: String, frame: Clock.SchedulerTimeType.Stride, values: [Character: Output],
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> MarbleComparison {
        let comparison = compare(toMarbles: expected, frame: frame, values: values)
        if !comparison.matches {
            Issue.record("Marble diagrams differ\n\(comparison)", sourceLocation: sourceLocation)
            Attachment.record(comparison.svg, named: "marbles.svg", sourceLocation: sourceLocation)
        }
        return comparison
    }
}
#endif
