import Foundation
@testable import NavlogAnalysis
#if canImport(FoundationXML)
import FoundationXML
#endif
import NavlogTestSupport
import XCTest

final class RendererTests: XCTestCase {
    /// The tiny report plus a session through a screen whose name needs escaping everywhere.
    private func report() -> FlowReport {
        var odd = SessionScript("s-2")
        odd.launch()
        let tap = odd.action("odd", on: "Home#1")
        odd.push("Say \"Hi\" <b>&\\#1", cause: tap)
        odd.end()
        var script = SessionScript()
        script.launch()
        script.wait(100)
        let detail = script.action("detail", on: "Home#1")
        script.push("Detail#1", cause: detail)
        script.wait(50)
        script.end()
        let options = ReportOptions(funnels: [Funnel(name: "detail", steps: ["Home", "Detail"])], breakdownLabels: ["app"])
        return makeReport([script, odd], options: options)
    }

    // MARK: - Text and Markdown

    func testTextFitsTheWidth() {
        let report = report()
        for width in [40, 60, 100] {
            let text = TextRenderer.render(report, width: width)
            let long = text.split(separator: "\n").filter { $0.count > width }
            XCTAssertEqual(long, [], "width \(width)")
        }
        let text = TextRenderer.render(report, width: 100)
        for title in ["Summary", "Screens", "Transitions", "Top paths", "Funnel detail", "Dwell time (ms)", "Dead ends", "Leaks", "Smells", "Breakdown by app"] {
            XCTAssertTrue(text.contains("\n\(title)\n") || text.hasPrefix("\(title)\n"), title)
        }
        XCTAssertTrue(text.contains("Home → Detail"))
    }

    func testTextTableNarrowsTextColumnsNotNumbers() {
        let table = ReportTable(headers: ["path", "n"], rows: [[String(repeating: "x", count: 50), "12345"]], numericColumns: [1])
        // 20 columns less the 2-space gap leave 18: the number keeps its 5, the path gets 13.
        XCTAssertEqual(TextRenderer.render(table, width: 20), """
            path               n
            ─────────────  ─────
            xxxxxxxxxxxx…  12345

            """)
    }

    func testMarkdownTables() {
        let markdown = MarkdownRenderer.render(report())
        XCTAssertTrue(markdown.hasPrefix("# navlog report\n\n## Summary\n\n"))
        XCTAssertTrue(markdown.contains("| from | to | count | share |\n| --- | --- | ---: | ---: |\n"))
        XCTAssertTrue(markdown.contains("| Home | Detail | 1 | 50% |"))
        XCTAssertTrue(markdown.contains("| Home | Say \"Hi\" \\<b\\>&\\\\ | 1 | 50% |"))
    }

    // MARK: - Graphs

    func testDOTParsesWithGraphviz() throws {
        let dot = DOTRenderer.render(report())
        XCTAssertTrue(dot.contains("\"Home\" -> \"Detail\" [label=\"1 (50%)\""))
        XCTAssertTrue(dot.contains("\"Say \\\"Hi\\\" <b>&\\\\\""))
        let executable = try GraphvizTool.dot()
        let result = try runTool(executable, ["-Tsvg"], input: dot)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        XCTAssertTrue(result.stdout.contains("<svg"))
    }

    func testMermaidFlowchartAndSankey() {
        let report = JSONSchemaTests.tinyReport()
        XCTAssertEqual(MermaidRenderer.flowchart(report), """
            flowchart LR
                s0["Detail"]
                s1["Home"]
                s1 -->|"1 (100%)"| s0

            """)
        XCTAssertEqual(MermaidRenderer.sankey(report), "sankey-beta\n\n1:Home,2:Detail,1\n")
        XCTAssertEqual(MermaidRenderer.field("1:A,B"), "\"1:A,B\"")
        XCTAssertTrue(MermaidRenderer.render(report).hasPrefix("```mermaid\nflowchart LR\n"))
    }

    // MARK: - HTML

    func testHTMLIsOneSelfContainedFile() throws {
        let html = HTMLRenderer.render(report(), title: "Flows <demo>")
        XCTAssertTrue(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        XCTAssertTrue(html.hasSuffix("</html>\n"))
        XCTAssertTrue(html.contains("<title>Flows &lt;demo&gt;</title>"))
        let lowered = html.lowercased()
        for forbidden in ["http://", "https://", "src=", "href=", "<script", "<link", "@import", "@font-face", "<img", "<iframe"] {
            XCTAssertFalse(lowered.contains(forbidden), forbidden)
        }
        // The only url() is the SVG arrow marker, a reference inside the document.
        XCTAssertEqual(lowered.components(separatedBy: "url(").count - 1, lowered.components(separatedBy: "url(#arrow)").count - 1)
        XCTAssertTrue(html.contains("Say &quot;Hi&quot; &lt;b&gt;&amp;\\"))
        XCTAssertFalse(html.contains("<b>&"))
        // The flow graph, one funnel, one histogram per screen type and the trees.
        XCTAssertEqual(html.components(separatedBy: "<svg class=\"flow\"").count - 1, 1)
        XCTAssertEqual(html.components(separatedBy: "aria-label=\"Funnel").count - 1, 1)
        XCTAssertEqual(html.components(separatedBy: "aria-label=\"Dwell time of").count - 1, 3)
        XCTAssertTrue(html.contains("<ul class=\"tree\">"))
        // Every SVG is well-formed XML.
        for svg in svgElements(in: html) {
            let parser = XMLParser(data: Data(svg.utf8))
            XCTAssertTrue(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "") in \(svg.prefix(200))")
        }
    }

    func testFlowGraphLayersByDepthFromTheEntry() {
        let graph = SVGFlowGraph(report: makeReport([PathTests.session("s-1", ["List", "Detail", "List"])]))
        // Home is the entry (column 0); List is one step away, Detail two.
        XCTAssertEqual(graph.nodes["Home"]?.column, 0)
        XCTAssertEqual(graph.nodes["List"]?.column, 1)
        XCTAssertEqual(graph.nodes["Detail"]?.column, 2)
        XCTAssertEqual(graph.nodes["Home"]?.isEntry, true)
        XCTAssertEqual(graph.nodes["List"]?.isDeadEnd, true)
    }

    func testEveryFormatRenders() {
        let report = report()
        XCTAssertEqual(report.rendered(as: .json), report.jsonText())
        XCTAssertEqual(report.rendered(as: .text, width: 70), TextRenderer.render(report, width: 70))
        XCTAssertEqual(Set(ReportFormat.allCases.map(\.rawValue)), ["text", "json", "markdown", "dot", "mermaid", "html"])
    }

    private func svgElements(in html: String) -> [String] {
        var result: [String] = []
        var rest = html[...]
        while let start = rest.range(of: "<svg"), let end = rest.range(of: "</svg>", range: start.upperBound..<rest.endIndex) {
            result.append(String(rest[start.lowerBound..<end.upperBound]))
            rest = rest[end.upperBound...]
        }
        return result
    }
}
