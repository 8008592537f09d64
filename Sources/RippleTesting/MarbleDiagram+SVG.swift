extension MarbleComparison {
    /// The two timelines drawn as an SVG image — values as marbles, `|` as a bar, `#` as a cross —
    /// with the first frame where they differ outlined in red.
    ///
    /// ```swift
    /// let comparison = MarbleComparison(expected: "-a--b-|", actual: "-a---b|")
    /// let svg = comparison.svg  // write it to a .svg file and open it in a browser
    /// print(svg.hasPrefix("<svg"))
    /// // Prints "true"
    /// ```
    ///
    /// ``TimelineRecorder/expectMarbles(_:frame:label:sourceLocation:)`` attaches it to the test when
    /// the diagrams differ.
    public var svg: String {
        let want = Self.normalized(expected)
        let got = Self.normalized(actual)
        var difference: Int?
        if !matches {
            let wanted = MarbleSVG.frames(of: want)
            let found = MarbleSVG.frames(of: got)
            let common = min(wanted.count, found.count)
            difference = (0..<common).first { wanted[$0] != found[$0] } ?? common
        }
        return MarbleSVG.render(rows: [("expected", want), ("actual", got)], highlighting: difference)
    }
}

/// Draws marble diagrams as SVG.
enum MarbleSVG {
    /// What one frame of a diagram holds.
    enum Frame: Equatable {
        /// `-`: nothing.
        case empty
        /// Marks in one frame: a value (letter), `|`, `#`, `?`; several for a group.
        case marks([Character])
        /// `…`: frames left out.
        case gap
    }

    static let frameWidth = 36
    static let rowHeight = 56
    static let labelWidth = 84

    /// Splits a diagram into frames (a group in parentheses is one frame).
    static func frames(of diagram: String) -> [Frame] {
        var frames: [Frame] = []
        var group: [Character]?
        for character in diagram where character != " " {
            switch character {
            case "(": group = []
            case ")":
                frames.append(.marks(group ?? []))
                group = nil
            case "-" where group == nil: frames.append(.empty)
            case "…" where group == nil: frames.append(.gap)
            default:
                if group != nil { group!.append(character) } else { frames.append(.marks([character])) }
            }
        }
        if let group { frames.append(.marks(group)) }
        return frames
    }

    /// An SVG image of `rows` (a name and a diagram each), one above the other, with frame
    /// `highlighting` outlined.
    static func render(rows: [(name: String, diagram: String)], highlighting: Int?) -> String {
        let parsed = rows.map { (name: $0.name, frames: frames(of: $0.diagram)) }
        let count = max(parsed.map(\.frames.count).max() ?? 0, (highlighting ?? 0) + 1, 1)
        let width = labelWidth + (count + 1) * frameWidth
        let height = rows.count * rowHeight + (highlighting == nil ? 16 : 40)
        var svg: [String] = [
            ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(width)" height="\##(height)" viewBox="0 0 \##(width) \##(height)" font-family="Helvetica, Arial, sans-serif" font-size="14">"##,
            ##"<rect width="100%" height="100%" fill="white"/>"##,
        ]
        if let frame = highlighting {
            let x = labelWidth + frame * frameWidth
            svg.append(
                ##"<rect x="\##(x)" y="6" width="\##(frameWidth)" height="\##(rows.count * rowHeight)" fill="#fdecea" stroke="#d93025" stroke-width="2" stroke-dasharray="5 3"/>"##)
            svg.append(
                ##"<text x="\##(labelWidth)" y="\##(rows.count * rowHeight + 28)" fill="#d93025">first difference: frame \##(frame)</text>"##)
        }
        for (index, row) in parsed.enumerated() {
            let y = 8 + index * rowHeight + rowHeight / 2
            let end = labelWidth + count * frameWidth + frameWidth / 2
            svg.append(##"<text x="8" y="\##(y + 5)" fill="#333">\##(escaped(row.name))</text>"##)
            svg.append(##"<line x1="\##(labelWidth)" y1="\##(y)" x2="\##(end)" y2="\##(y)" stroke="#555" stroke-width="2"/>"##)
            svg.append(##"<path d="M\##(end) \##(y - 6) L\##(end + 10) \##(y) L\##(end) \##(y + 6) Z" fill="#555"/>"##)
            for (position, frame) in row.frames.enumerated() {
                let center = labelWidth + position * frameWidth + frameWidth / 2
                switch frame {
                case .empty: break
                case .gap:
                    svg.append(##"<text x="\##(center)" y="\##(y - 8)" text-anchor="middle" fill="#555">…</text>"##)
                case .marks(let marks):
                    for (offset, mark) in marks.enumerated() {
                        // A group's marks stack upwards in their frame.
                        svg.append(draw(mark, x: center, y: y - offset * 10))
                    }
                }
            }
        }
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    /// One mark: a value as a coloured marble with its letter, `|` a bar, `#` a cross, `?` a grey marble.
    static func draw(_ mark: Character, x: Int, y: Int) -> String {
        switch mark {
        case "|":
            return ##"<line class="finished" x1="\##(x)" y1="\##(y - 14)" x2="\##(x)" y2="\##(y + 14)" stroke="#222" stroke-width="3"/>"##
        case "#":
            return ##"<path class="failure" d="M\##(x - 9) \##(y - 9) L\##(x + 9) \##(y + 9) M\##(x + 9) \##(y - 9) L\##(x - 9) \##(y + 9)" stroke="#d93025" stroke-width="3"/>"##
        default:
            let colours = ["#8ab4f8", "#81c995", "#fdd663", "#f28b82", "#c58af9", "#78d9ec", "#fcad70", "#ff8bcb"]
            let fill = mark == "?" ? "#cccccc" : colours[Int(mark.unicodeScalars.first!.value) % colours.count]
            return ##"<g class="value"><circle cx="\##(x)" cy="\##(y)" r="13" fill="\##(fill)" stroke="#333" stroke-width="1.5"/><text x="\##(x)" y="\##(y + 5)" text-anchor="middle">\##(escaped(String(mark)))</text></g>"##
        }
    }

    static func escaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
