@testable import NavlogAnalysis
import NavlogEvents
import NavlogHost
import NavlogJournal
import NavlogTestSupport
import NavlogTesting
import XCTest

/// Real sessions of the demo app, run by scenario through `SessionCore`, then reported on.
final class EndToEndTests: XCTestCase {
    private func runSession(_ id: String, script: String, parameters: [String: String] = [:], into sink: MemoryEventSink) throws {
        let app = DemoApp.definition
        let session = try SessionCore(id: id, app: app, parameters: try app.resolveParameters(parameters), sink: sink)
        let outcome = ScenarioRunner.run(try ScenarioParser.parse(script, source: "\(id).scenario"), on: session)
        XCTAssertNil(outcome.failure, outcome.failure.map { "\($0)" } ?? "")
        session.end()
    }

    func testWhatTheJournalLeavesOutForTheReportChangesNothing() throws {
        // Sessions whose view models change, revert and change while hidden.
        let sink = MemoryEventSink()
        try runSession("s-1", script: "wait 250ms\ntap detail\nwait 1s\nback\ntap sheet\nwait 2s\ndismiss\ndeeplink demo://detail", into: sink)
        try runSession("s-2", script: "wait\ntap detail\nwait 3s", parameters: ["broken": "true"], into: sink)
        XCTAssertTrue(sink.events.contains { $0.kind == .viewModelChange })
        XCTAssertTrue(sink.events.contains { ReportBuilder.envelopeOnlyKinds.contains($0.kind) })
        let options = ReportOptions(funnels: [Funnel(name: "detail", steps: ["Home", "Detail"])])
        var values = ReportBuilder(options: options)
        var digests = ReportBuilder(options: options, snapshots: .digests)
        for event in sink.events {
            values.consume(event)
            // As the journal hands them over: snapshots as digests, actions as envelopes.
            var read = event
            if case .object(var members) = event.payload, let names = ReportBuilder.digestibleMembers[event.kind] {
                for name in names { members[name] = members[name].map(JSONFingerprint.digest) }
                read.payload = .object(members)
            }
            if ReportBuilder.envelopeOnlyKinds.contains(event.kind) {
                read = Event(seq: event.seq, wallNanoseconds: event.wallNanoseconds, monotonicNanoseconds: event.monotonicNanoseconds,
                             run: event.run, session: event.session, sessionSeq: event.sessionSeq, kind: event.kind, subject: "",
                             cause: event.cause)
            }
            digests.consume(read)
        }
        XCTAssertEqual(digests.finish(), values.finish())
    }

    /// `navlog report` reads journals as interned events (names as ids, sessions numbered per
    /// file); the same events read back as `Event`s and handed to the builder one by one give
    /// the same report, with sessions interleaved and spread over several files.
    func testTheInternedJournalPathGivesTheReportOfTheEventPath() throws {
        var sessions: [[Event]] = []
        for index in 1...4 {
            let sink = MemoryEventSink()
            // s-2 shows Detail as a full-screen modal with no way back.
            let script = index == 2 ? "wait\ntap detail\nwait 3s" : "wait 250ms\ntap detail\nwait 1s\nback\ntap sheet\nwait 2s\ndismiss\ndeeplink demo://detail"
            try runSession("s-\(index)", script: script, parameters: index == 2 ? ["broken": "true"] : [:], into: sink)
            sessions.append(sink.events)
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("navlog-interned-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Small blocks and files, so sessions run across blocks and files.
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory, blockSize: 5, maximumFileBytes: 20_000))
        var positions = [Int](repeating: 0, count: sessions.count)
        while positions.indices.contains(where: { positions[$0] < sessions[$0].count }) {
            // Round robin over the sessions that have events left.
            for index in positions.indices where positions[index] < sessions[index].count {
                writer.record(sessions[index][positions[index]])
                positions[index] += 1
            }
            _ = try writer.flush()
        }
        try writer.close()
        XCTAssertGreaterThan(JournalReader(paths: [directory]).files().count, 2, "the sessions span files")

        let options = ReportOptions(funnels: [Funnel(name: "detail", steps: ["Home", "Detail"])], breakdownLabels: ["app"])
        let interned = try FlowReport.read(journals: [directory], options: options).value
        var builder = ReportBuilder(options: options)
        let reader = JournalReader(paths: [directory])
        for run in try reader.runs() { builder.addRun(id: run.id, labels: run.labels) }
        var events = reader.events(matching: EventFilter())
        var count = 0
        while let event = try events.next() {
            builder.consume(event)
            count += 1
        }
        XCTAssertEqual(count, sessions.map(\.count).reduce(0, +))
        XCTAssertEqual(interned, builder.finish())
        XCTAssertEqual(interned.summary.sessions, 4)
    }

    func testReportOnScriptedSessions() throws {
        let sink = MemoryEventSink()
        // s-1: Home → Detail (tap) → Home (back) → Sheet (tap) → Home (swipe) → Detail (deep link).
        try runSession("s-1", script: """
            expect screen Home
            wait 250ms
            tap detail
            wait 1s
            back
            tap sheet
            wait 2s
            dismiss
            deeplink demo://detail
            expect stack Home Detail
            """, into: sink)
        // s-2: Home → Detail as a full-screen modal with no way back, so the session ends there.
        try runSession("s-2", script: "wait\ntap detail\nwait 3s", parameters: ["broken": "true"], into: sink)

        var builder = ReportBuilder(options: ReportOptions(funnels: [Funnel(name: "detail", steps: ["Home", "Detail"])]))
        builder.addRun(id: "", labels: [:])
        for event in sink.events { builder.consume(event) }
        let report = builder.finish()

        XCTAssertEqual(report.summary.sessions, 2)
        XCTAssertEqual(report.summary.completeSessions, 2)
        XCTAssertEqual(report.summary.events, sink.events.count)
        // Home → Detail: s-1 twice (tap, deep link), s-2 once; the other moves once each.
        XCTAssertEqual(transitionList(report), ["Home>Detail:3", "Detail>Home:1", "Home>Sheet:1", "Sheet>Home:1"])
        // Home departs 4 times: 3 to Detail, 1 to Sheet.
        XCTAssertEqual(report.transitions.first?.share, 0.75)
        // Both sessions end on Detail, which is not their first screen.
        XCTAssertEqual(report.deadEnds.map(\.screen), ["Detail"])
        XCTAssertEqual(report.deadEnds.first?.examples, ["s-1", "s-2"])
        // Both sessions reach Detail after Home.
        XCTAssertEqual(report.funnels.first?.steps.map(\.sessions), [2, 2])
        // The scripted waits move the clock: Detail is seen for at least 1 s (s-1's first
        // visit); the sheet for at least 2 s. Both sessions end on Detail: those last visits
        // are cut off by session.end (censored) and left out.
        let detail = try XCTUnwrap(report.dwell.first { $0.screen == "Detail" })
        XCTAssertEqual(detail.summary.count, 1)
        XCTAssertEqual(detail.censored, 2)
        XCTAssertGreaterThanOrEqual(detail.summary.medianMilliseconds ?? 0, 1000)
        XCTAssertGreaterThanOrEqual(report.dwell.first { $0.screen == "Sheet" }?.summary.medianMilliseconds ?? 0, 2000)
        // The list loads while Home is visible: one view-model change per session, not reverted.
        XCTAssertEqual(report.churn.map(\.screen), ["Home"])
        XCTAssertEqual(report.churn.first?.changes, 2)
        XCTAssertEqual(report.churn.first?.reverted, 0)
        // The runtime tears everything down cleanly: balanced lifecycles, no leaks.
        XCTAssertEqual(report.lifecycles.types.map(\.coordinator), ["HomeCoordinator"])
        XCTAssertEqual(report.lifecycles.unbalanced, 0)
        XCTAssertEqual(report.leaks.count, 0)

        for format in ReportFormat.allCases {
            XCTAssertFalse(report.rendered(as: format).isEmpty, "\(format)")
        }
    }
}
