// Marble diagrams drawn as SVG, and attached to a failing expectation.
import Foundation
import RippleTesting
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// The elements of an XML document, parsed with Foundation's XMLParser (which fails on a document
/// that is not well-formed).
private final class Elements: NSObject, XMLParserDelegate {
    var elements: [(name: String, attributes: [String: String])] = []
    var texts: [String] = []
    private var text = ""

    static func parse(_ xml: String) throws -> Elements {
        let parser = XMLParser(data: Data(xml.utf8))
        let elements = Elements()
        parser.delegate = elements
        guard parser.parse() else { throw parser.parserError ?? CocoaError(.coderReadCorrupt) }
        return elements
    }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        elements.append((name, attributes))
        text = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "text" { texts.append(text) }
        text = ""
    }

    func count(_ name: String, class className: String) -> Int {
        elements.filter { $0.name == name && $0.attributes["class"] == className }.count
    }
}

@Suite struct MarbleSVGTests {
    /// The SVG is well-formed XML with one marble per value, a bar per finish, and the first
    /// differing frame outlined.
    @Test func aComparisonIsDrawnWithItsDifference() throws {
        let svg = MarbleComparison(expected: "-a--b-|", actual: "-a---b|").svg
        let parsed = try Elements.parse(svg)
        #expect(parsed.elements.first?.name == "svg")
        #expect(parsed.count("g", class: "value") == 4)
        #expect(parsed.count("line", class: "finished") == 2)
        #expect(parsed.texts.contains("first difference: frame 4"))
        #expect(parsed.texts.filter { $0 == "a" || $0 == "b" }.count == 4)
        #expect(parsed.texts.contains("expected") && parsed.texts.contains("actual"))
    }

    @Test func groupsAndFailuresAreDrawn() throws {
        let grouped = try Elements.parse(MarbleComparison(expected: "--(xy|)", actual: "--(xy|)").svg)
        #expect(grouped.count("g", class: "value") == 4)
        #expect(!grouped.texts.contains { $0.hasPrefix("first difference") })
        let failing = try Elements.parse(MarbleComparison(expected: "-7#", actual: "-7|").svg)
        #expect(failing.count("path", class: "failure") == 1)
        #expect(failing.texts.contains("first difference: frame 2"))
    }

    @Test func aFailingExpectationReportsTheDiagrams() {
        let scheduler = TestScheduler()
        let subject = PassthroughSubject<String, Never>()
        let recorder = subject.record(on: scheduler)
        scheduler.advance(by: .milliseconds(100))
        subject.send("a")
        withKnownIssue {
            recorder.expectMarbles("-b", frame: .milliseconds(100))
        } matching: { issue in
            String(describing: issue).contains("Marble diagrams differ")
        }
    }
}
