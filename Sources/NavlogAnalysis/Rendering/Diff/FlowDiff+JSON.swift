import NavlogEvents

/// The JSON form of a diff, described key by key in `docs/DIFF.md`.
extension FlowDiff {
    /// The version of the JSON schema; raised only when a key changes meaning or goes away.
    public static let schemaVersion = "navlog.diff/1"

    /// Returns the diff as a JSON value.
    public func jsonValue() -> JSONValue {
        let counts = self.counts
        return [
            "schema": .string(FlowDiff.schemaVersion),
            "result": .string(hasRegression ? "regression" : "pass"),
            "settings": [
                "alpha": .double(settings.alpha),
                "noise_threshold": .double(settings.noiseThreshold),
                "min_samples": .int(Int64(settings.minimumSamples)),
                "gates": .array(settings.gates.sorted().map { .string($0.rawValue) }),
                "ignore_fields": .array(settings.ignoredFields.map(JSONValue.string)),
            ],
            "base": FlowDiff.json(base),
            "candidate": FlowDiff.json(candidate),
            "counts": ["compared": .int(Int64(counts.compared)), "failed": .int(Int64(counts.failed)), "skipped": .int(Int64(counts.skipped))],
            "scenarios": .array(scenarios.map(FlowDiff.json)),
            "structural": .array(structural.map(FlowDiff.json)),
            "metrics": .array(metrics.map(FlowDiff.json)),
        ]
    }

    /// Returns the diff as compact JSON text with sorted keys, ending in a newline.
    public func jsonText() -> String {
        jsonValue().serialized() + "\n"
    }

    // MARK: - Parts

    private static func json(_ side: SideSummary) -> JSONValue {
        ["sessions": .int(Int64(side.sessions)), "events": .int(Int64(side.events)), "runs": .int(Int64(side.runs)), "scenarios": .int(Int64(side.scenarios))]
    }

    private static func json(_ scenario: ScenarioComparison) -> JSONValue {
        [
            "scenario": .string(scenario.scenario), "session": .string(scenario.session), "status": .string(scenario.status.rawValue),
            "gating": .bool(scenario.isGating), "failure": .bool(scenario.isFailure),
            "removed": .int(Int64(scenario.diff?.removed ?? 0)), "added": .int(Int64(scenario.diff?.added ?? 0)),
            "navigation_changes": .array(scenario.navigationChanges.map(JSONValue.string)),
            "hunks": .array((scenario.diff?.hunks ?? []).map { hunk in
                [
                    "header": .string(hunk.header),
                    "base_start": .int(Int64(hunk.baseStart)), "base_count": .int(Int64(hunk.baseCount)),
                    "candidate_start": .int(Int64(hunk.candidateStart)), "candidate_count": .int(Int64(hunk.candidateCount)),
                    "lines": .array(hunk.lines.map(JSONValue.string)),
                ]
            }),
        ]
    }

    private static func json(_ finding: StructuralFinding) -> JSONValue {
        var object: [String: JSONValue] = [
            "kind": .string(finding.kind.rawValue), "subject": .string(finding.subject), "detail": .string(finding.detail),
            "regression": .bool(finding.kind.isRegressionKind), "gating": .bool(finding.isGating), "failure": .bool(finding.isFailure),
            "test": .null, "p_value": .null, "adjusted_p_value": .null, "base_sessions": .null, "candidate_sessions": .null,
        ]
        if let share = finding.share {
            object["test"] = .string(share.test)
            object["p_value"] = number(share.pValue)
            object["adjusted_p_value"] = number(share.adjustedPValue)
            object["base_sessions"] = ["showing": .int(Int64(share.base.showing)), "sessions": .int(Int64(share.base.sessions))]
            object["candidate_sessions"] = ["showing": .int(Int64(share.candidate.showing)), "sessions": .int(Int64(share.candidate.sessions))]
        }
        return .object(object)
    }

    private static func json(_ metric: MetricComparison) -> JSONValue {
        func side(_ side: MetricComparison.Side) -> JSONValue {
            ["count": .int(Int64(side.count)), "value": number(side.value), "low": number(side.low), "high": number(side.high)]
        }
        return [
            "family": .string(metric.family.rawValue), "name": .string(metric.name), "unit": .string(metric.unit),
            "base": side(metric.base), "candidate": side(metric.candidate),
            "relative_change": number(metric.relativeChange),
            "test": metric.test.map(JSONValue.string) ?? .null,
            "p_value": number(metric.pValue), "adjusted_p_value": number(metric.adjustedPValue),
            "status": .string(metric.status.rawValue), "gating": .bool(metric.isGating), "failure": .bool(metric.isFailure),
        ]
    }

    private static func number(_ value: Double?) -> JSONValue {
        guard let value, value.isFinite else { return .null }
        return .double(value)
    }
}
