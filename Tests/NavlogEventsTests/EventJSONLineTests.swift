import Foundation
import XCTest

@testable import NavlogEvents

/// `Event.strictlyDecoded(jsonLine:)`: the one-pass reading of an event line takes exactly the
/// well-formed lines, and gives back the event `jsonLine()` wrote.
final class EventJSONLineTests: XCTestCase {
    private func decode(_ line: String) -> Event? {
        var line = line
        return line.withUTF8 { Event.strictlyDecoded(jsonLine: $0) }
    }

    func testEveryFieldComesBackAsJSONLineWroteIt() {
        let events = [
            Event(seq: 7, wallNanoseconds: 1_800_000_000_123_456_789, monotonicNanoseconds: 42, run: "r-1", session: "s-1", sessionSeq: 3,
                  kind: .screenPush, subject: "DetailCoordinator#2", screen: "Detail#1", cause: 2, parent: "AppCoordinator#1",
                  payload: ["title": "Ünïcode \"quoted\" \\ line\nbreak", "n": 1.5, "list": [1, "two", .null, true], "nested": ["a": ["b": 1]]]),
            Event(wallNanoseconds: -5, monotonicNanoseconds: 0, run: "r", session: "s", sessionSeq: 1, kind: EventKind(rawValue: "custom.kind"),
                  subject: ""),
        ]
        for event in events {
            var expected = event
            expected.seq = 0
            XCTAssertEqual(decode(event.jsonLine()), expected, event.jsonLine())
        }
        // A run the line before had is taken from it; another is the line's own.
        var line = events[0].jsonLine()
        XCTAssertEqual(line.withUTF8 { Event.strictlyDecoded(jsonLine: $0, previousRun: "r-1") }?.run, "r-1")
        XCTAssertEqual(line.withUTF8 { Event.strictlyDecoded(jsonLine: $0, previousRun: "r-2") }?.run, "r-1")
        // Nulls for the optional members, no payload, no seq, spaces between tokens.
        XCTAssertEqual(decode(#" { "time" : "2026-12-01T10:00:00Z" , "mono_ns":1,"run":"r","session":"s","session_seq":1,"kind":"k","subject":"x","screen":null,"cause":null,"parent":null} "#),
                       Event(wallNanoseconds: 1_796_119_200_000_000_000, monotonicNanoseconds: 1, run: "r", session: "s", sessionSeq: 1,
                             kind: EventKind(rawValue: "k"), subject: "x"))
    }

    func testAnythingButAWellFormedEventIsLeftToTheThoroughReading() {
        let good = #""time":"2026-12-01T10:00:00Z","mono_ns":1,"run":"r","session":"s","session_seq":1,"kind":"k","subject":"x""#
        XCTAssertNotNil(decode("{\(good)}"))
        for line in [
            "", "[]", "{}", "nope", "{\(good)", "{\(good)} x", "{\(good),}",
            "{\(good),\"run\":\"again\"}",                                   // a repeated key
            "{\(good),\"colour\":\"red\"}",                                  // an unknown key
            "{\(good),\"payload\":[1]}", "{\(good),\"payload\":null}",
            "{\(good),\"cause\":-1}", "{\(good),\"cause\":\"1\"}", "{\(good),\"seq\":\"1\"}", "{\(good),\"screen\":3}",
            "{\(good),\"subject_type\":null}",
            "{\(good.replacingOccurrences(of: #""session_seq":1"#, with: #""session_seq":0"#))}",
            "{\(good.replacingOccurrences(of: #""run":"r""#, with: #""run":"""#))}",
            "{\(good.replacingOccurrences(of: #""mono_ns":1"#, with: #""mono_ns":-1"#))}",
            "{\(good.replacingOccurrences(of: "2026-12-01T10:00:00Z", with: "yesterday"))}",
            "{\(good.replacingOccurrences(of: #","kind":"k""#, with: ""))}",
        ] {
            XCTAssertNil(decode(line), line)
        }
    }
}
