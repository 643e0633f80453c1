import Foundation
@testable import NavlogAnalysis
import NavlogEvents
import XCTest

/// Baseline files: events written as their `Codable` form, packed sequences read back as they
/// were, the exact diff unchanged by packing, and version 1 files still read.
final class DiffBaselineTests: XCTestCase {
    /// A session of `app` that opens Home, taps and changes its view model `changes` times.
    private func session(_ id: String, run: String, changes: Int, summary: String = "On") -> SessionScript {
        var script = SessionScript(id, run: run)
        script.launch()
        for index in 0..<changes {
            script.action("toggle", on: "Home#1")
            script.change("HomePresenter#1", on: "Home#1", from: ["isOn": .bool(index % 2 == 1), "summary": "Off"], to: ["isOn": .bool(index % 2 == 0), "summary": .string(summary)])
        }
        script.record(.action, subject: "Home#1", screen: "Home#1", payload: ["element": "private", "value": "hmac:0123456789abcdef"])
        script.end()
        return script
    }

    /// A side with a scripted scenario (two sessions) and a seeded walk, as the collector makes it.
    private func side(summary: String = "On") -> DiffSide {
        var collector = DiffSideCollector(settings: DiffSettings())
        collector.addRun(id: "r-1", labels: ["scenario": "toggle"])
        collector.addRun(id: "r-2", labels: ["explore_seed": "7", "app": "demo"])
        for script in [session("s-1", run: "r-1", changes: 3, summary: summary), session("s-2", run: "r-1", changes: 1), session("s-1", run: "r-2", changes: 40)] {
            for event in script.events { collector.consume(event) }
        }
        var side = collector.finish()
        XCTAssertEqual(side.sequences.map(\.key), ["explore demo seed 7 s-1", "toggle s-1", "toggle s-2"])
        // Shapes the collector does not make from these scripts: no cause, a parent, no screen,
        // a gap in `n`, a cause after the event, and text that needs escaping.
        for index in side.sequences.indices {
            side.sequences[index].events[0].cause = nil
            side.sequences[index].events[1].parent = "Parent#1"
            side.sequences[index].events[2].screen = nil
            side.sequences[index].events[3].sessionSeq += 10
            side.sequences[index].events[4].cause = 999
            side.sequences[index].events[5].payload = ["text": "Zoë said \"hi\"\n\t→ ✓"]
        }
        return side
    }

    /// The side without its walk.
    private func scriptedSide() -> DiffSide {
        var side = side()
        side.sequences.removeAll { $0.scenario.hasPrefix("explore ") }
        return side
    }

    private func readBack(_ baseline: DiffBaseline, packingLongerThan threshold: Int = DiffBaseline.packingThreshold) throws -> DiffBaseline {
        try DiffBaseline(data: try baseline.serialized(packingSequencesLongerThan: threshold))
    }

    // MARK: - Events

    func testEventLinesAreTheirCodableForm() throws {
        for event in side().sequences.flatMap(\.events) {
            var bytes: [UInt8] = []
            event.write(to: &bytes)
            XCTAssertEqual(String(decoding: bytes, as: UTF8.self), try JSONValue(encoding: event).serialized())
            XCTAssertEqual(try NormalizedEvent(json: try JSONValue(parsing: Data(bytes))), event)
        }
        XCTAssertThrowsError(try NormalizedEvent(json: ["n": 1, "k": "action", "p": [:]])) { error in
            XCTAssertEqual("\(error)", "event n=1: \"s\" is missing or has the wrong type")
        }
    }

    // MARK: - Packing

    func testInlineAndPackedSequencesReadBackAsTheyWere() throws {
        let baseline = DiffBaseline(side: side(), settings: DiffSettings())
        let text = String(decoding: try baseline.serialized(), as: UTF8.self)
        XCTAssertTrue(text.contains("\n  \"packed_events\": {\n    \"bytes\": "), text)
        XCTAssertEqual(text.components(separatedBy: "\"events_packed\": ").count, 2, "only the walk is packed")
        XCTAssertEqual(text.components(separatedBy: "\"events\": [").count, 3, "the scripted sessions stay inline")
        XCTAssertEqual(try readBack(baseline), baseline)
        XCTAssertEqual(try readBack(baseline, packingLongerThan: 0), baseline)
        XCTAssertEqual(try readBack(baseline, packingLongerThan: .max), baseline)

        let scriptedOnly = DiffBaseline(side: scriptedSide(), settings: DiffSettings())
        XCTAssertFalse(String(decoding: try scriptedOnly.serialized(), as: UTF8.self).contains("packed"))
    }

    func testLinesWhoseDigestsCollideAreToldApart() throws {
        let sequences = (side().sequences + scriptedSide().sequences).map(\.events)
        XCTAssertGreaterThan(sequences.joined().count, 10)
        let packed = try PackedEvents(sequences)
        // Every line under one digest: each is then found by comparing whole events.
        let collided = try PackedEvents(sequences, digest: { _ in 42 })
        XCTAssertEqual(collided, packed, "the same lines, numbered the same")
        XCTAssertEqual(try collided.sequences(counts: sequences.map(\.count)), sequences)
    }

    func testTheExactDiffAgainstAPackedBaselineIsTheSame() throws {
        var settings = DiffSettings()
        settings.contextLines = 1
        let base = side(), candidate = side(summary: "Off")
        let packed = try readBack(DiffBaseline(side: base, settings: settings), packingLongerThan: 0).side
        let expected = FlowDiff(base: base, candidate: candidate, settings: settings)
        let actual = FlowDiff(base: packed, candidate: candidate, settings: settings)
        XCTAssertTrue(expected.rendered(as: .text).contains("@@ -"), expected.rendered(as: .text))
        for format in DiffFormat.allCases {
            XCTAssertEqual(actual.rendered(as: format), expected.rendered(as: format), "\(format)")
        }
    }

    // MARK: - Versions and damage

    func testVersionOneFilesAreStillRead() throws {
        let baseline = DiffBaseline(side: scriptedSide(), settings: DiffSettings())
        // Version 1 wrote every event inline, exactly as version 2 writes a short scripted run.
        let text = String(decoding: try baseline.serialized(), as: UTF8.self)
        XCTAssertTrue(text.hasSuffix("\n  \"version\": 2\n}\n"), text)
        let versionOne = text.replacingOccurrences(of: "\n  \"version\": 2\n}\n", with: "\n  \"version\": 1\n}\n")
        XCTAssertEqual(try DiffBaseline(data: Data(versionOne.utf8)), baseline)

        let versionThree = text.replacingOccurrences(of: "\n  \"version\": 2\n}\n", with: "\n  \"version\": 3\n}\n")
        XCTAssertThrowsError(try DiffBaseline(data: Data(versionThree.utf8))) { error in
            XCTAssertEqual("\(error)", "baseline version 3 is not supported (this navlog reads versions 1 to 2)")
        }
    }

    func testADamagedPackIsRefusedSayingWhere() throws {
        let text = String(decoding: try DiffBaseline(side: side(), settings: DiffSettings()).serialized(), as: UTF8.self)
        // Each puts something in front of a value: a character base64 has not, three zero bytes
        // before the zlib header, another length, another count.
        let cases: [(key: String, insertion: String, message: String)] = [
            ("\"zlib_base64\": \"", "*", "damaged baseline: packed events: \"zlib_base64\" is not base64"),
            ("\"zlib_base64\": \"", "AAAA", "damaged baseline: packed events: zlib error Z_DATA_ERROR while inflating \"zlib_base64\": unknown compression method"),
            ("\"bytes\": ", "1", "damaged baseline: packed events: zlib error Z_DATA_ERROR while inflating \"zlib_base64\": inflated "),
            ("\"events_packed\": ", "1", "damaged baseline: packed events: the sequences hold "),
        ]
        for (key, insertion, message) in cases {
            let damaged = text.replacingOccurrences(of: key, with: key + insertion)
            XCTAssertThrowsError(try DiffBaseline(data: Data(damaged.utf8)), key) { error in
                XCTAssertTrue("\(error)".hasPrefix(message), "\(key): \(error)")
            }
        }
    }
}
