/// Renders a ``FlowDiff`` as JUnit XML in the common (Jenkins / GitHub) shape: a
/// `<testsuites>` root, one `<testsuite>` each for exact, structural and statistical, and one
/// `<testcase>` per compared scenario session, structural check or metric. A failure is a
/// `<failure>`; a scenario that is not deterministic or a metric with too few samples is
/// `<skipped>`.
enum DiffJUnitRenderer {
    private struct Case {
        var name: String
        var failure: (message: String, body: String)? = nil
        var skipped: String? = nil
    }

    static func render(_ diff: FlowDiff) -> String {
        let exact = diff.scenarios.map { scenario in
            Case(
                name: scenario.name,
                failure: scenario.isFailure ? (DiffTextRenderer.summary(scenario), (scenario.navigationChanges + (scenario.diff?.hunks ?? []).flatMap { [$0.header] + $0.lines }).joined(separator: "\n")) : nil,
                skipped: scenario.isSkipped ? DiffTextRenderer.summary(scenario) : nil
            )
        }
        let structural = StructuralFinding.Kind.allCases.map { kind in
            let findings = diff.structural.filter { $0.kind == kind }
            let failing = findings.filter(\.isFailure)
            return Case(
                name: kind.rawValue,
                failure: failing.isEmpty ? nil : ("\(failing.count) \(kind.rawValue.replacingOccurrences(of: "_", with: " "))", failing.map(\.detail).joined(separator: "\n")),
                skipped: nil
            )
        }
        let statistical = diff.metrics.map { metric in
            let text = DiffTextRenderer.describe(metric, minimumSamples: diff.settings.minimumSamples)
            return Case(
                name: metric.title,
                failure: metric.isFailure ? (text, text) : nil,
                skipped: metric.status == .tooFewSamples ? text : nil
            )
        }
        return render([("exact", exact), ("structural", structural), ("statistical", statistical)])
    }

    /// Renders what `navlog diff` did when it recorded a baseline instead of comparing: one
    /// suite `baseline` with one `<skipped>` testcase, so that CI shows nothing was checked.
    static func renderRecordedBaseline(at path: String) -> String {
        render([("baseline", [Case(name: path, skipped: "baseline recorded at \(path) from the candidate; nothing compared")])])
    }

    private static func render(_ suites: [(String, [Case])]) -> String {
        let all = suites.flatMap(\.1)
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<testsuites name=\"navlog diff\" tests=\"\(all.count)\" failures=\"\(all.filter { $0.failure != nil }.count)\" errors=\"0\" skipped=\"\(all.filter { $0.skipped != nil }.count)\">",
        ]
        for (name, cases) in suites {
            lines.append("  <testsuite name=\"\(name)\" tests=\"\(cases.count)\" failures=\"\(cases.filter { $0.failure != nil }.count)\" errors=\"0\" skipped=\"\(cases.filter { $0.skipped != nil }.count)\">")
            for testCase in cases {
                let open = "    <testcase classname=\"navlog.diff.\(name)\" name=\"\(escape(testCase.name))\""
                if let failure = testCase.failure {
                    lines += [open + ">", "      <failure message=\"\(escape(failure.message))\" type=\"regression\">\(escape(failure.body))</failure>", "    </testcase>"]
                } else if let skipped = testCase.skipped {
                    lines += [open + ">", "      <skipped message=\"\(escape(skipped))\"/>", "    </testcase>"]
                } else {
                    lines.append(open + "/>")
                }
            }
            lines.append("  </testsuite>")
        }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Escapes text for XML attributes and content; control characters other than tab and
    /// newline, which XML 1.0 forbids, become spaces.
    static func escape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\n": result += "&#10;"
            case "\t": result.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20: result += " "
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

/// Renders the findings of a ``FlowDiff`` as GitHub Actions workflow commands: `::error` for
/// what fails the comparison, `::warning` for what is worse without gating.
enum DiffAnnotationRenderer {
    static func render(_ diff: FlowDiff) -> String {
        var lines: [String] = []
        func add(_ level: String, _ title: String, _ message: String) {
            lines.append("::\(level) title=\(escape(title, isProperty: true))::\(escape(message, isProperty: false))")
        }
        for scenario in diff.scenarios where scenario.status == .changed {
            let message = ([DiffTextRenderer.summary(scenario)] + scenario.navigationChanges).joined(separator: "\n")
            add(scenario.isFailure ? "error" : "warning", "navlog diff: \(scenario.name)", message)
        }
        for finding in diff.structural where finding.kind.isRegressionKind {
            add(finding.isFailure ? "error" : "warning", "navlog diff: \(finding.kind.rawValue)", finding.detail)
        }
        for metric in diff.metrics where metric.status == .regression || metric.status == .changed {
            add(metric.isFailure ? "error" : "warning", "navlog diff: \(metric.title)", DiffTextRenderer.describe(metric, minimumSamples: diff.settings.minimumSamples))
        }
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }

    /// Escapes as the runner expects: `%`, CR and LF always; `:` and `,` in properties too.
    private static func escape(_ text: String, isProperty: Bool) -> String {
        var result = text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
        if isProperty { result = result.replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C") }
        return result
    }
}
