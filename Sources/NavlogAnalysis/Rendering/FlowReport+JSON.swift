import NavlogEvents

/// The JSON form of a report, described key by key in `docs/REPORT.md`.
///
/// Keys are snake_case and written sorted (``JSONValue/serialized()``); durations are
/// milliseconds rounded to the microsecond and ratios are rounded to four decimals, so equal
/// inputs give equal bytes.
extension FlowReport {
    /// The version of the JSON schema; raised only when a key changes meaning or goes away.
    public static let schemaVersion = "navlog.report/1"

    /// Returns the report as a JSON value.
    public func jsonValue() -> JSONValue {
        [
            "schema": .string(FlowReport.schemaVersion),
            "sessions": [
                "count": .int(Int64(summary.sessions)),
                "complete": .int(Int64(summary.completeSessions)),
                "runs": .array(summary.runs.map { .string($0) }),
                "first_time": summary.firstWall.map { .string(Event.formatTime($0)) } ?? .null,
                "last_time": summary.lastWall.map { .string(Event.formatTime($0)) } ?? .null,
            ],
            "events": .int(Int64(summary.events)),
            "screens": .array(screens.map {
                ["screen": .string($0.screen), "visits": int($0.visits), "sessions": int($0.sessions), "entries": int($0.entries), "exits": int($0.exits)]
            }),
            "transitions": FlowReport.json(transitions),
            "paths": [
                "sessions": FlowReport.json(paths.sessionPaths),
                "subpaths": FlowReport.json(paths.subpaths),
                "from": FlowReport.json(paths.from),
                "to": FlowReport.json(paths.to),
                "steps": .array(paths.steps.map { ["step": int($0.step), "from": .string($0.from), "to": .string($0.to), "count": int($0.count)] }),
            ],
            "funnels": .array(funnels.map(FlowReport.json)),
            "dwell": FlowReport.json(dwell),
            "load": .array(load.map { figure in
                var object = FlowReport.json(figure.summary).objectValue ?? [:]
                object["screen"] = .string(figure.screen)
                object["histogram"] = FlowReport.json(figure.histogram)
                object["loaded"] = int(figure.loaded)
                object["empty"] = int(figure.empty)
                object["failed"] = int(figure.failed)
                object["abandoned"] = int(figure.abandoned)
                object["censored"] = int(figure.censored)
                object["abandoned_share"] = .double(figure.abandonedShare)
                object["failed_share"] = .double(figure.failedShare)
                return .object(object)
            }),
            "loops": [
                "cycles": .array(loops.cycles.map { ["screens": strings($0.screens), "sessions": int($0.sessions), "total": int($0.total)] }),
                "repeats": .array(loops.repeats.map { ["screen": .string($0.screen), "sessions": int($0.sessions), "extra_visits": int($0.extraVisits)] }),
            ],
            "dead_ends": .array(deadEnds.map { ["screen": .string($0.screen), "sessions": int($0.sessions), "examples": strings($0.examples)] }),
            "lifecycles": FlowReport.json(lifecycles),
            "leaks": [
                "count": int(leaks.count),
                "groups": .array(leaks.groups.map {
                    ["kind": .string($0.kind), "subject_type": .string($0.subjectType), "count": int($0.count), "sessions": int($0.sessions)]
                }),
                "examples": .array(leaks.examples.map(FlowReport.json)),
            ],
            "churn": .array(churn.map {
                [
                    "screen": .string($0.screen), "visits": int($0.visits), "changes": int($0.changes),
                    "changes_per_visit": .double($0.changesPerVisit), "reverted": int($0.reverted),
                    "non_rendered": int($0.nonRendered), "ineffective": int($0.ineffective), "hidden": int($0.hidden),
                ]
            }),
            "smells": [
                "double_pushes": .array(smells.doublePushes.map {
                    ["screen": .string($0.screen), "count": int($0.count), "sessions": int($0.sessions), "min_interval_ms": .double($0.minimumIntervalMilliseconds)]
                }),
                "ping_pongs": .array(smells.pingPongs.map {
                    ["screens": strings($0.screens), "sessions": int($0.sessions), "max_round_trips": int($0.maximumRoundTrips)]
                }),
                "changes_after_dismiss": .array(smells.changesAfterDismiss.map { ["screen": .string($0.screen), "count": int($0.count)] }),
            ],
            "breakdown": .array(breakdown.map { figure in
                ["label": .string(figure.label), "values": .array(figure.values.map(FlowReport.json))]
            }),
        ]
    }

    /// Returns the report as compact JSON text with sorted keys, ending in a newline.
    public func jsonText() -> String {
        jsonValue().serialized() + "\n"
    }

    // MARK: - Parts

    static func json(_ transitions: [TransitionFigure]) -> JSONValue {
        .array(transitions.map { ["from": .string($0.from), "to": .string($0.to), "count": int($0.count), "share": .double($0.share)] })
    }

    static func json(_ dwell: [DwellFigure]) -> JSONValue {
        .array(dwell.map { figure in
            var object = json(figure.summary).objectValue ?? [:]
            object["screen"] = .string(figure.screen)
            object["histogram"] = json(figure.histogram)
            object["censored"] = int(figure.censored)
            return .object(object)
        })
    }

    static func json(_ histogram: [HistogramBin]) -> JSONValue {
        .array(histogram.map { ["low_ms": .double($0.lowMilliseconds), "high_ms": .double($0.highMilliseconds), "count": int($0.count)] })
    }

    static func json(_ summary: DurationSummary) -> JSONValue {
        [
            "n": int(summary.count), "sample_n": int(summary.sampleCount),
            "median_ms": number(summary.medianMilliseconds), "p90_ms": number(summary.p90Milliseconds),
            "ci95_low_ms": number(summary.ci95LowMilliseconds), "ci95_high_ms": number(summary.ci95HighMilliseconds),
            "ci_note": summary.intervalNote.map { .string($0) } ?? .null,
        ]
    }

    static func json(_ paths: [PathCount]) -> JSONValue {
        .array(paths.map { ["screens": strings($0.screens), "sessions": int($0.sessions), "total": int($0.total)] })
    }

    static func json(_ anchored: [AnchoredPaths]) -> JSONValue {
        .array(anchored.map { ["screen": .string($0.screen), "paths": json($0.paths)] })
    }

    static func json(_ funnel: FunnelFigure) -> JSONValue {
        [
            "name": .string(funnel.name),
            "steps": .array(funnel.steps.map { step in
                [
                    "screen": .string(step.screen), "sessions": int(step.sessions), "conversion": .double(step.conversion),
                    "step_conversion": .double(step.stepConversion), "drop_off": int(step.dropOff),
                    "went_instead": .array(step.wentInstead.map { ["screen": .string($0.name), "count": int($0.count)] }),
                ]
            }),
            "time_to_convert": json(funnel.timeToConvert),
        ]
    }

    static func json(_ lifecycles: LifecycleFigures) -> JSONValue {
        [
            "types": .array(lifecycles.types.map {
                [
                    "coordinator": .string($0.coordinator), "started": int($0.started), "finished": int($0.finished),
                    "deallocated": int($0.deallocated), "unbalanced": int($0.unbalanced),
                ]
            }),
            "edges": .array(lifecycles.edges.map { ["parent": .string($0.parent), "child": .string($0.child), "count": int($0.count)] }),
            "unbalanced": int(lifecycles.unbalanced),
            "trees": .array(lifecycles.trees.map { tree in
                [
                    "session": .string(tree.session),
                    "nodes": .array(tree.nodes.map { node in
                        [
                            "coordinator": .string(node.coordinator), "parent": node.parent.map { .string($0) } ?? .null,
                            "started": .bool(node.isStarted), "finished": .bool(node.isFinished),
                            "deallocated": .bool(node.isDeallocated), "children": strings(node.children),
                        ]
                    }),
                ]
            }),
        ]
    }

    static func json(_ leak: LeakDetector.Leak) -> JSONValue {
        [
            "kind": .string(leak.kind.rawValue), "session": .string(leak.session), "subject": .string(leak.subject),
            "screen": leak.screen.map { .string($0) } ?? .null, "session_seq": .int(Int64(leak.sessionSeq)),
            "description": .string(leak.description),
        ]
    }

    static func json(_ value: BreakdownFigure.Value) -> JSONValue {
        [
            "value": .string(value.value), "sessions": int(value.sessions), "events": int(value.events),
            "transitions": json(value.transitions), "dwell": json(value.dwell),
            "dead_end_sessions": int(value.deadEndSessions), "leaks": int(value.leaks),
            "funnels": .array(value.funnelConversions.map { ["name": .string($0.name), "conversion": .double($0.value)] }),
        ]
    }
}

// MARK: - Helpers

private func int(_ value: Int) -> JSONValue { .int(Int64(value)) }
private func number(_ value: Double?) -> JSONValue { value.map { .double($0) } ?? .null }
private func strings(_ values: [String]) -> JSONValue { .array(values.map { .string($0) }) }
