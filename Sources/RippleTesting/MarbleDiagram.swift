/// An expected and an actual marble diagram, and whether they match.
///
/// Its description puts the two timelines one above the other and marks the first frame where
/// they differ:
///
/// ```
/// expected: -a--b-|
/// actual:   -a---b|
///               ^ frame 4
/// ```
public struct MarbleComparison: Equatable, Sendable, CustomStringConvertible {
    /// The expected diagram, as written.
    public let expected: String
    /// The recorded diagram.
    public let actual: String
    /// Values that had no label (shown as `?` in `actual`), described in order.
    public let unlabelled: [String]

    /// Compares `expected` with `actual`.
    public init(expected: String, actual: String, unlabelled: [String] = []) {
        self.expected = expected
        self.actual = actual
        self.unlabelled = unlabelled
    }

    /// Whether the timelines match: spaces are ignored, and so are trailing `-` of a diagram
    /// without a completion.
    public var matches: Bool {
        Self.normalized(expected) == Self.normalized(actual) && !actual.contains("?")
    }

    /// The two diagrams one above the other, with the first difference marked.
    public var description: String {
        let want = Self.normalized(expected)
        let got = Self.normalized(actual)
        var lines = ["expected: \(want)", "actual:   \(got)"]
        if !matches {
            let wanted = Array(want)
            let found = Array(got)
            let common = min(wanted.count, found.count)
            let index = (0..<common).first { wanted[$0] != found[$0] } ?? common
            lines.append(String(repeating: " ", count: 10 + index) + "^ frame \(Self.frame(at: index, in: found))")
        }
        if !unlabelled.isEmpty {
            lines.append("?: " + unlabelled.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }

    /// The diagram without spaces, and without trailing `-` unless it completes.
    static func normalized(_ diagram: String) -> String {
        var text = diagram.filter { $0 != " " }
        if !text.contains("|") && !text.contains("#") {
            while text.hasSuffix("-") { text.removeLast() }
        }
        return text
    }

    /// Which frame character `index` of `diagram` falls in (a group is one frame).
    private static func frame(at index: Int, in diagram: [Character]) -> Int {
        var frame = 0
        var inGroup = false
        for character in diagram.prefix(index) {
            switch character {
            case "(": inGroup = true
            case ")":
                inGroup = false
                frame += 1
            default: if !inGroup { frame += 1 }
            }
        }
        return frame
    }
}

/// Renders timed events as a marble diagram.
enum MarbleDiagram {
    /// Frames beyond this are not drawn one by one: a longer gap shows as `…`.
    static let maximumFrames = 10_000

    static func render<Time: Strideable, Output, Failure: Error>(
        _ events: [(time: Time, event: RecordedEvent<Output, Failure>)], start: Time, frame: Time.Stride,
        label: (Output) -> Character?
    ) -> (diagram: String, unlabelled: [String]) where Time.Stride: SchedulerTimeIntervalConvertible {
        var unlabelled: [String] = []
        // Group the events by frame index, walking the clock one frame at a time.
        var frames: [(index: Int, marks: [Character])] = []
        var index = 0
        var frameEnd = start.advanced(by: frame)
        var truncated = false
        for (time, event) in events {
            if frame > .zero {
                while frameEnd <= time && index < maximumFrames {
                    index += 1
                    frameEnd = frameEnd.advanced(by: frame)
                }
                if index == maximumFrames { truncated = true }
            }
            let mark: Character
            switch event {
            case .value(let value):
                if let character = label(value) {
                    mark = character
                } else {
                    mark = "?"
                    unlabelled.append(String(describing: value))
                }
            case .completion(.finished): mark = "|"
            case .completion(.failure): mark = "#"
            }
            if let last = frames.last, last.index == index {
                frames[frames.count - 1].marks.append(mark)
            } else {
                frames.append((index, [mark]))
            }
        }
        var diagram = ""
        var drawn = 0
        for (frameIndex, marks) in frames {
            if truncated && frameIndex == maximumFrames && drawn < frameIndex {
                diagram += "…"
                drawn = frameIndex
            }
            diagram += String(repeating: "-", count: frameIndex - drawn)
            diagram += marks.count == 1 ? String(marks[0]) : "(" + String(marks) + ")"
            drawn = frameIndex + 1
        }
        return (diagram, unlabelled)
    }
}
