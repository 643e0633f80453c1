@testable import NavlogAnalysis
import NavlogEvents
import XCTest

final class JSONSchemaTests: XCTestCase {
    /// One session: Home from 0 to 100 ms, ready at once, then Detail (a tap and a push),
    /// ready 20 ms later, until the end at 150 ms; nine events (start, coordinator start, push,
    /// root, ready, action, push, ready, end).
    static func tinyReport() -> FlowReport {
        var script = SessionScript()
        script.launch()
        script.ready("Home#1", cause: 2)
        script.wait(100)
        let tap = script.action("detail", on: "Home#1")
        script.push("Detail#1", cause: tap)
        script.wait(20)
        script.ready("Detail#1", cause: tap)
        script.wait(30)
        script.end()
        let options = ReportOptions(
            subpathLengths: 2...2, pathsFrom: ["Home"], pathsTo: ["Detail"],
            funnels: [Funnel(name: "detail", steps: ["Home", "Detail"])], breakdownLabels: ["app"]
        )
        return makeReport([script], options: options)
    }

    /// The whole JSON of the tiny report, worked out by hand: Home dwells 100 ms (n = 1, so no
    /// interval); Detail's only visit is cut off by the session's end, so it is censored and has
    /// no dwell sample; Home loads in 0 ms and Detail in 20 ms (ready during its censored visit,
    /// so timed); one transition Home → Detail with share 1; Detail is a dead end (not the first
    /// screen); the funnel converts in 100 ms (Home at 0, Detail at 100); the AppCoordinator
    /// started and never finished in this hand-made stream.
    func testTinyReportJSON() {
        let home = """
            {"censored":0,"ci95_high_ms":null,"ci95_low_ms":null,"ci_note":"too few samples (n < 6)",
            "histogram":[{"count":1,"high_ms":100,"low_ms":100}],"median_ms":100,"n":1,"p90_ms":100,"sample_n":1,
            "screen":"Home"}
            """
        let detail = """
            {"censored":1,"ci95_high_ms":null,"ci95_low_ms":null,"ci_note":"no samples","histogram":[],
            "median_ms":null,"n":0,"p90_ms":null,"sample_n":0,"screen":"Detail"}
            """
        let dwell = "[\(home),\(detail)]"
        let expected = """
            {"breakdown":[{"label":"app","values":[{"dead_end_sessions":1,"dwell":\(dwell),"events":9,
            "funnels":[{"conversion":1,"name":"detail"}],"leaks":0,"sessions":1,"transitions":[{"count":1,
            "from":"Home","share":1,"to":"Detail"}],"value":"demo"}]}],"churn":[],"dead_ends":[{"examples":["s-1"],
            "screen":"Detail","sessions":1}],"dwell":\(dwell),"events":9,"funnels":[{"name":"detail","steps":[{"conversion":1,"drop_off":0,
            "screen":"Home","sessions":1,"step_conversion":1,"went_instead":[]},{"conversion":1,"drop_off":0,
            "screen":"Detail","sessions":1,"step_conversion":1,"went_instead":[]}],"time_to_convert":{"ci95_high_ms":null,
            "ci95_low_ms":null,"ci_note":"too few samples (n < 6)","median_ms":100,"n":1,"p90_ms":100,"sample_n":1}}],
            "leaks":{"count":0,"examples":[],"groups":[]},"lifecycles":{"edges":[],"trees":[{"nodes":[{"children":[],
            "coordinator":"AppCoordinator#1","deallocated":false,"finished":false,"parent":null,"started":true}],
            "session":"s-1"}],"types":[{"coordinator":"AppCoordinator","deallocated":0,"finished":0,"started":1,
            "unbalanced":1}],"unbalanced":1},"load":[{"abandoned":0,"abandoned_share":0,"censored":0,"ci95_high_ms":null,
            "ci95_low_ms":null,"ci_note":"too few samples (n < 6)","empty":0,"failed":0,"failed_share":0,
            "histogram":[{"count":1,"high_ms":20,"low_ms":20}],"loaded":1,"median_ms":20,"n":1,"p90_ms":20,"sample_n":1,
            "screen":"Detail"},{"abandoned":0,"abandoned_share":0,"censored":0,"ci95_high_ms":null,"ci95_low_ms":null,
            "ci_note":"too few samples (n < 6)","empty":0,"failed":0,"failed_share":0,"histogram":[{"count":1,
            "high_ms":0,"low_ms":0}],"loaded":1,"median_ms":0,"n":1,"p90_ms":0,"sample_n":1,"screen":"Home"}],
            "loops":{"cycles":[],"repeats":[]},"paths":{"from":[{"paths":[{"screens":["Home",
            "Detail","(end)"],"sessions":1,"total":1}],"screen":"Home"}],"sessions":[{"screens":["Home",
            "Detail"],"sessions":1,"total":1}],"steps":[{"count":1,"from":"Home","step":1,"to":"Detail"}],
            "subpaths":[{"screens":["Home","Detail"],"sessions":1,"total":1}],"to":[{"paths":[{"screens":["(start)",
            "Home","Detail"],"sessions":1,"total":1}],"screen":"Detail"}]},"schema":"navlog.report/1","screens":[{"entries":0,
            "exits":1,"screen":"Detail","sessions":1,"visits":1},{"entries":1,"exits":0,"screen":"Home",
            "sessions":1,"visits":1}],"sessions":{"complete":1,"count":1,"first_time":"2026-12-01T00:00:00.000000000Z",
            "last_time":"2026-12-01T00:00:00.150000000Z","runs":["r-1"]},"smells":{"changes_after_dismiss":[],
            "double_pushes":[],"ping_pongs":[]},"transitions":[{"count":1,"from":"Home","share":1,"to":"Detail"}]}
            """
        let actual = JSONSchemaTests.tinyReport().jsonText()
        XCTAssertEqual(actual, expected.replacingOccurrences(of: "\n", with: "") + "\n")
    }

    func testEveryKeyIsPinned() {
        let expected: Set<String> = [
            "breakdown", "breakdown[].label", "breakdown[].values", "breakdown[].values[].dead_end_sessions",
            "breakdown[].values[].dwell", "breakdown[].values[].dwell[].censored", "breakdown[].values[].dwell[].ci95_high_ms",
            "breakdown[].values[].dwell[].ci95_low_ms", "breakdown[].values[].dwell[].ci_note",
            "breakdown[].values[].dwell[].histogram", "breakdown[].values[].dwell[].histogram[].count",
            "breakdown[].values[].dwell[].histogram[].high_ms", "breakdown[].values[].dwell[].histogram[].low_ms",
            "breakdown[].values[].dwell[].median_ms", "breakdown[].values[].dwell[].n",
            "breakdown[].values[].dwell[].p90_ms", "breakdown[].values[].dwell[].sample_n",
            "breakdown[].values[].dwell[].screen", "breakdown[].values[].events", "breakdown[].values[].funnels",
            "breakdown[].values[].funnels[].conversion", "breakdown[].values[].funnels[].name",
            "breakdown[].values[].leaks", "breakdown[].values[].sessions", "breakdown[].values[].transitions",
            "breakdown[].values[].transitions[].count", "breakdown[].values[].transitions[].from",
            "breakdown[].values[].transitions[].share", "breakdown[].values[].transitions[].to",
            "breakdown[].values[].value",
            "churn", "churn[].changes", "churn[].changes_per_visit", "churn[].hidden", "churn[].ineffective",
            "churn[].non_rendered", "churn[].reverted", "churn[].screen", "churn[].visits",
            "dead_ends", "dead_ends[].examples", "dead_ends[].screen", "dead_ends[].sessions",
            "dwell", "dwell[].censored", "dwell[].ci95_high_ms", "dwell[].ci95_low_ms", "dwell[].ci_note", "dwell[].histogram",
            "dwell[].histogram[].count", "dwell[].histogram[].high_ms", "dwell[].histogram[].low_ms",
            "dwell[].median_ms", "dwell[].n", "dwell[].p90_ms", "dwell[].sample_n", "dwell[].screen",
            "events",
            "funnels", "funnels[].name", "funnels[].steps", "funnels[].steps[].conversion",
            "funnels[].steps[].drop_off", "funnels[].steps[].screen", "funnels[].steps[].sessions",
            "funnels[].steps[].step_conversion", "funnels[].steps[].went_instead",
            "funnels[].steps[].went_instead[].count", "funnels[].steps[].went_instead[].screen",
            "funnels[].time_to_convert", "funnels[].time_to_convert.ci95_high_ms",
            "funnels[].time_to_convert.ci95_low_ms", "funnels[].time_to_convert.ci_note",
            "funnels[].time_to_convert.median_ms", "funnels[].time_to_convert.n", "funnels[].time_to_convert.p90_ms",
            "funnels[].time_to_convert.sample_n",
            "leaks", "leaks.count", "leaks.examples", "leaks.examples[].description", "leaks.examples[].kind",
            "leaks.examples[].screen", "leaks.examples[].session", "leaks.examples[].session_seq",
            "leaks.examples[].subject", "leaks.groups", "leaks.groups[].count", "leaks.groups[].kind",
            "leaks.groups[].sessions", "leaks.groups[].subject_type",
            "lifecycles", "lifecycles.edges", "lifecycles.edges[].child", "lifecycles.edges[].count",
            "lifecycles.edges[].parent", "lifecycles.trees", "lifecycles.trees[].nodes",
            "lifecycles.trees[].nodes[].children", "lifecycles.trees[].nodes[].coordinator",
            "lifecycles.trees[].nodes[].deallocated", "lifecycles.trees[].nodes[].finished",
            "lifecycles.trees[].nodes[].parent", "lifecycles.trees[].nodes[].started", "lifecycles.trees[].session",
            "lifecycles.types", "lifecycles.types[].coordinator", "lifecycles.types[].deallocated",
            "lifecycles.types[].finished", "lifecycles.types[].started", "lifecycles.types[].unbalanced",
            "lifecycles.unbalanced",
            "load", "load[].abandoned", "load[].abandoned_share", "load[].censored", "load[].ci95_high_ms",
            "load[].ci95_low_ms", "load[].ci_note", "load[].empty", "load[].failed", "load[].failed_share",
            "load[].histogram", "load[].histogram[].count", "load[].histogram[].high_ms", "load[].histogram[].low_ms",
            "load[].loaded", "load[].median_ms", "load[].n", "load[].p90_ms", "load[].sample_n", "load[].screen",
            "loops", "loops.cycles", "loops.cycles[].screens", "loops.cycles[].sessions", "loops.cycles[].total",
            "loops.repeats", "loops.repeats[].extra_visits", "loops.repeats[].screen", "loops.repeats[].sessions",
            "paths", "paths.from", "paths.from[].paths", "paths.from[].paths[].screens",
            "paths.from[].paths[].sessions", "paths.from[].paths[].total", "paths.from[].screen", "paths.sessions",
            "paths.sessions[].screens", "paths.sessions[].sessions", "paths.sessions[].total", "paths.steps",
            "paths.steps[].count", "paths.steps[].from", "paths.steps[].step", "paths.steps[].to", "paths.subpaths",
            "paths.subpaths[].screens", "paths.subpaths[].sessions", "paths.subpaths[].total", "paths.to",
            "paths.to[].paths", "paths.to[].paths[].screens", "paths.to[].paths[].sessions",
            "paths.to[].paths[].total", "paths.to[].screen",
            "schema",
            "screens", "screens[].entries", "screens[].exits", "screens[].screen", "screens[].sessions",
            "screens[].visits",
            "sessions", "sessions.complete", "sessions.count", "sessions.first_time", "sessions.last_time",
            "sessions.runs",
            "smells", "smells.changes_after_dismiss", "smells.changes_after_dismiss[].count",
            "smells.changes_after_dismiss[].screen", "smells.double_pushes", "smells.double_pushes[].count",
            "smells.double_pushes[].min_interval_ms", "smells.double_pushes[].screen",
            "smells.double_pushes[].sessions", "smells.ping_pongs", "smells.ping_pongs[].max_round_trips",
            "smells.ping_pongs[].screens", "smells.ping_pongs[].sessions",
            "transitions", "transitions[].count", "transitions[].from", "transitions[].share", "transitions[].to",
        ]
        let actual = JSONSchemaTests.keyPaths(JSONSchemaTests.richReport().jsonValue())
        XCTAssertEqual(actual.subtracting(expected).sorted(), [], "keys not in the schema")
        XCTAssertEqual(expected.subtracting(actual).sorted(), [], "schema keys missing")
    }

    func testSerializationIsStable() {
        XCTAssertEqual(JSONSchemaTests.richReport().jsonText(), JSONSchemaTests.richReport().jsonText())
    }

    /// A report where every list has at least one entry: a ping-pong, a double push, churn,
    /// a leak, a funnel, a breakdown and a load.
    static func richReport() -> FlowReport {
        var script = SessionScript()
        script.launch()
        script.ready("Home#1", cause: 2)
        script.change("HomePresenter#1", on: "Home#1", from: ["a": 1], to: ["a": 2])
        let coordinate = script.record(.coordinatorCoordinate, subject: "AppCoordinator#1", payload: ["child": "ChildCoordinator#1"])
        script.record(.coordinatorStart, subject: "ChildCoordinator#1", cause: coordinate, parent: "AppCoordinator#1")
        script.record(.screenPush, subject: "ChildCoordinator#1", screen: "Detail#1", payload: ["stack": "NavigationStack#1", "depth": 2, "bound": ["DetailPresenter#1"]])
        script.pop("Detail#1", to: "Home#1")
        script.change("DetailPresenter#1", on: "Detail#1", from: ["a": 1], to: ["a": 2])
        script.record(.coordinatorFinish, subject: "AppCoordinator#1")
        var pingPong = PathTests.session("s-2", ["A", "B", "A", "B", "A"])
        pingPong.setRun("r-2")
        let options = ReportOptions(pathsFrom: ["A"], pathsTo: ["B"], funnels: [Funnel(name: "abc", steps: ["A", "B", "C"])], breakdownLabels: ["app"])
        return makeReport([script, pingPong], options: options)
    }

    /// Every key path of `value`: `a.b` for objects, `a[]` for array elements.
    static func keyPaths(_ value: JSONValue, prefix: String = "") -> Set<String> {
        switch value {
        case .object(let members):
            var paths: Set<String> = []
            for (key, member) in members {
                let path = prefix.isEmpty ? key : "\(prefix).\(key)"
                paths.insert(path)
                paths.formUnion(keyPaths(member, prefix: path))
            }
            return paths
        case .array(let elements):
            return elements.reduce(into: Set<String>()) { $0.formUnion(keyPaths($1, prefix: prefix + "[]")) }
        default:
            return []
        }
    }
}
