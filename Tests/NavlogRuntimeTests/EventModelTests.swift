import NavlogEvents
import NavlogRuntime
import XCTest

final class EventModelTests: XCTestCase {
    func testKindNamesAreTheDocumentedOnes() {
        XCTAssertEqual(EventKind.allKnown.map(\.rawValue), [
            "session.start", "session.end",
            "coordinator.start", "coordinator.coordinate", "coordinator.finish", "coordinator.deinit",
            "screen.push", "screen.pop", "screen.present", "screen.dismiss", "window.root", "tab.select",
            "presenter.init", "presenter.deinit", "viewmodel.change",
            "action", "deeplink", "error",
            "journal.dropped",
            "screen.ready",
        ])
        XCTAssertFalse(EventKind(rawValue: "screen.flip").isKnown)
    }

    func testKindsCompareAndHashByNameWhateverWayTheyWereMade() throws {
        for kind in EventKind.allKnown {
            let parsed = EventKind(rawValue: String(kind.rawValue.map { $0 }))
            XCTAssertEqual(parsed, kind)
            XCTAssertEqual(parsed.hashValue, kind.hashValue)
            XCTAssertTrue(parsed.isKnown)
            XCTAssertEqual(try JSONDecoder().decode(EventKind.self, from: JSONEncoder().encode(kind)), kind)
            for other in EventKind.allKnown where other.rawValue != kind.rawValue { XCTAssertNotEqual(parsed, other) }
        }
        let future = EventKind(rawValue: "screen.morph")
        XCTAssertFalse(future.isKnown)
        XCTAssertEqual(future, EventKind(rawValue: String("screen.morph".reversed().reversed())))
        XCTAssertNotEqual(future, .screenPush)
        XCTAssertNotEqual(future, EventKind(rawValue: "screen.morph2"))
        XCTAssertEqual(Set(EventKind.allKnown.map(\.rawValue)).count, EventKind.allKnown.count)
        XCTAssertEqual(EventKind.allKnown.filter(\.isNavigation), [.screenPush, .screenPop, .screenPresent, .screenDismiss, .windowRoot, .tabSelect])
        XCTAssertEqual(Set(EventKind.allKnown.filter(\.isNavigation)), EventKind.navigationKinds)
    }

    func testEventJSONMatchesTheDesignAndRoundTrips() throws {
        let event = Event(
            seq: 41, wallNanoseconds: 1_796_119_200_123_456_789, monotonicNanoseconds: 81_234_000, run: "r-1",
            session: "s-3", sessionSeq: 9, kind: .screenPush, subject: "DetailCoordinator#2", screen: "Detail#1",
            cause: 8, payload: ["depth": 2]
        )
        XCTAssertEqual(
            event.jsonLine(),
            #"{"cause":8,"kind":"screen.push","mono_ns":81234000,"payload":{"depth":2},"run":"r-1","screen":"Detail#1","#
                + #""seq":41,"session":"s-3","session_seq":9,"subject":"DetailCoordinator#2","subject_type":"DetailCoordinator","#
                + #""time":"2026-12-01T10:00:00.123456789Z"}"#
        )
        XCTAssertEqual(try Event(json: try JSONValue(parsing: event.jsonLine())), event)
    }

    func testEventJSONErrorsNameTheKey() {
        XCTAssertThrowsError(try Event(json: ["seq": 1, "time": "yesterday"])) { error in
            XCTAssertEqual("\(error)", "event JSON: key 'time' is not an RFC 3339 UTC time: yesterday")
        }
        XCTAssertThrowsError(try Event(json: ["seq": "one"])) { error in
            XCTAssertEqual("\(error)", "event JSON: key 'seq' has the wrong type")
        }
    }

    func testTimesFormatAndParse() {
        XCTAssertEqual(Event.formatTime(0), "1970-01-01T00:00:00.000000000Z")
        XCTAssertEqual(Event.parseTime("2026-12-01T10:00:00Z"), 1_796_119_200_000_000_000)
        XCTAssertEqual(Event.parseTime("2026-12-01T11:00:00.5+01:00"), 1_796_119_200_500_000_000)
        XCTAssertNil(Event.parseTime("2026-13-01T10:00:00Z"))
        XCTAssertNil(Event.parseTime("2026-12-01 10:00"))
        for value: Int64 in [1, 999_999_999, 1_796_119_200_123_456_789, -1_500_000_000] {
            XCTAssertEqual(Event.parseTime(Event.formatTime(value)), value)
        }
        XCTAssertEqual(Event.formatTime(1_796_119_200_123_456_789, fractionDigits: 3), "2026-12-01T10:00:00.123Z")
        XCTAssertEqual(Event.formatTime(-1_500_000_000, fractionDigits: 0), "1969-12-31T23:59:58Z")
        XCTAssertEqual(Event.formatTime(-1_500_000_000), "1969-12-31T23:59:58.500000000Z")
    }

    func testCalendarFieldsEqualGmtimeAcrossTheWholeRange() {
        // Edges (epoch, leap days, century years, the ends of Int64 nanoseconds) and a seeded
        // spread over 1677-2262, each against the C library.
        var seconds: [Int64] = [0, -1, 86_399, 86_400, -86_400, -86_401, 951_782_400, 951_868_799, 4_107_542_400,
                                 -2_208_988_800, 946_684_799, 1_796_119_200, Int64.max / 1_000_000_000, Int64.min / 1_000_000_000]
        var state: UInt64 = 7
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            seconds.append(Int64(bitPattern: state >> 1) % (Int64.max / 1_000_000_000))
            seconds.append(-Int64(state >> 40))
        }
        for value in seconds {
            var time = time_t(value)
            var parts = tm()
            gmtime_r(&time, &parts)
            let fields = UTCDateTime(secondsSince1970: value)
            let expected = [Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour),
                            Int(parts.tm_min), Int(parts.tm_sec), Int(parts.tm_wday)]
            let actual = [fields.year, fields.month, fields.day, fields.hour, fields.minute, fields.second, fields.weekday]
            XCTAssertEqual(actual, expected, "\(value)")
            if actual != expected { return }
        }
    }

    func testJSONValueParsesAndSerializes() throws {
        let text = #"{"b":[1,2.5,-3e2,true,false,null],"a":"x\"y\\z\n\u00e9\ud83d\ude00"}"#
        let value = try JSONValue(parsing: text)
        XCTAssertEqual(value["a"], "x\"y\\z\né😀")
        XCTAssertEqual(value["b"], [1, 2.5, -300, true, false, nil])
        XCTAssertEqual(value.serialized(), #"{"a":"x\"y\\z\né😀","b":[1,2.5,-300,true,false,null]}"#)
        XCTAssertEqual(try JSONValue(parsing: value.serialized()), value)
    }

    func testJSONParserRejectsGarbageWithAnOffset() {
        for (text, offset) in [("{\"a\":}", 5), ("[1,2", 4), ("tru", 0), ("{} x", 3), ("\"\u{01}\"", 1)] {
            XCTAssertThrowsError(try JSONValue(parsing: text), text) { error in
                XCTAssertEqual((error as? JSONParseError)?.offset, offset, "\(text): \(error)")
            }
        }
        let deep = String(repeating: "[", count: 10_000)
        XCTAssertThrowsError(try JSONValue(parsing: deep)) { error in
            XCTAssertEqual((error as? JSONParseError)?.reason, "nesting deeper than 512")
        }
    }

    func testTwoRunsOfTheSameFlowRecordTheSameSequence() throws {
        func run() throws -> [String] {
            let (context, sink) = makeContext()
            let root = RootCoordinator(context: context)
            try context.launch(root)
            try root.coordinate(to: ScreenCoordinator(context: context, stack: root.stack, screenName: "A"))
            try context.window.present(Screen(name: "M", view: ScriptedView(), owner: root, context: context), owner: root)
            try context.window.userSwipeDismiss()
            try context.window.userBack()
            context.end()
            return sink.events.map { "\(trace($0)) \($0.payload.serialized())" }
        }
        let first = try run()
        XCTAssertEqual(first, try run())
        XCTAssertGreaterThan(first.count, 10)
    }

    func testTextFormatterShowsOneLinePerEventAndDiffsViewModels() {
        let formatter = EventTextFormatter(showsTime: false, showsSession: false)
        let push = Event(wallNanoseconds: 0, monotonicNanoseconds: 0, session: "s-1", sessionSeq: 3, kind: .screenPush,
                         subject: "AppCoordinator#1", screen: "Home#1", cause: 2, payload: ["depth": 1, "stack": "NavigationStack#1"])
        XCTAssertEqual(formatter.format(push), "    3  screen.push             AppCoordinator#1  [Home#1]  ←2  depth=1 stack=NavigationStack#1")
        let change = Event(wallNanoseconds: 0, monotonicNanoseconds: 0, session: "s-1", sessionSeq: 4, kind: .viewModelChange,
                           subject: "HomePresenter#1", screen: "Home#1",
                           payload: ["viewmodel": "HomeViewModel", "changed": ["title"], "previous": ["title": "a"], "snapshot": ["title": "b"]])
        XCTAssertEqual(formatter.format(change), """
                4  viewmodel.change        HomePresenter#1  [Home#1]  HomeViewModel
                    - title: "a"
                    + title: "b"
            """)
    }
}

final class NavigationStateJSONTests: XCTestCase {
    func testStateJSONHasEveryMemberSnakeCasedAndSorted() throws {
        let (context, _) = makeContext()
        let root = RootCoordinator(context: context)
        try context.launch(root)
        try root.coordinate(to: ScreenCoordinator(context: context, stack: root.stack, screenName: "Detail"))
        let tabsStack = NavigationStack(context: context, name: "InnerStack")
        try tabsStack.push(Screen(name: "Inner", view: ScriptedView(elements: [
            .text("Hi", id: "hi"), .text("say \"hi\"\n\\ \u{01} to a longer line of more than thirty-two bytes", id: "quoted"),
            .toggle("t", title: "T", isOn: true), .textField("q", placeholder: "Q", value: "v"),
            .list("l", items: [.item("i1", title: "One", detail: "first")]), .spinner(isSpinning: false), .image("logo"),
        ]), owner: root, context: context))
        let tabs = TabContainer(context: context, tabs: [.init(title: "Inner", stack: tabsStack)], owner: root)
        try context.window.present(tabs, style: .fullScreen, owner: root)
        try context.window.present(Screen(name: "Sheet", view: ScriptedView(), owner: root, context: context), owner: root)
        try context.window.dismiss()
        let state = context.state()
        var bytes: [UInt8] = []
        state.write(to: &bytes)
        let json = try JSONValue(parsing: String(decoding: bytes, as: UTF8.self))
        // Parsed and printed again with sorted keys, the text is unchanged: compact, sorted.
        XCTAssertEqual(json.serialized(), String(decoding: bytes, as: UTF8.self))
        XCTAssertEqual(json["window"]?["modals"]?.arrayValue?.first?["content"]?["selected_tab"], "Inner")
        XCTAssertEqual(json["window"]?["modals"]?.arrayValue?.first?["content"]?["tabs"]?.arrayValue?.dropFirst(0).first?["stack"]?["screens"], ["Inner#1"])
        XCTAssertEqual(json["window"]?["visible_screen"]?.stringValue, state.window.visibleScreen)
        XCTAssertEqual(json["visible"]?["elements"]?["children"]?.arrayValue?.dropFirst(1).first?["text"]?.stringValue, "say \"hi\"\n\\ \u{01} to a longer line of more than thirty-two bytes")
        XCTAssertEqual(json["visible"]?["elements"]?["children"]?.arrayValue?.dropFirst(2).first?["is_on"], true)
        XCTAssertEqual(json["coordinators"]?.arrayValue?.dropFirst(0).first?["children"]?.arrayValue?.dropFirst(0).first?["id"]?.stringValue, state.coordinators.first?.children.first?.id)
    }
}

final class JSONValueEncoderTests: XCTestCase {
    private struct Sample: Codable, Equatable {
        enum Phase: String, Codable { case rest, loaded }
        struct Item: Codable, Equatable {
            var id: Int
            var title: String?
        }
        var date: Date
        var phase: Phase
        var items: [Item]
        var tags: [String: Int]
        var nested: [[Double]]
        var optional: String?
        var present: Bool?
        var data: Data
        var url: URL
        var big: UInt64
        var small: Int8
    }

    func testSnapshotsMatchJSONEncoder() throws {
        let values = [
            Sample(date: Date(timeIntervalSince1970: 1_796_119_200.75), phase: .loaded,
                   items: [.init(id: 1, title: "a\"b\\c\n"), .init(id: -2, title: nil)], tags: ["x": 1, "é": 2],
                   nested: [[1.5, -0.25], []], optional: nil, present: true, data: Data([0, 1, 254, 255]),
                   url: URL(string: "https://example.com/a?b=c")!, big: UInt64.max, small: -8),
            Sample(date: Date(timeIntervalSince1970: -1.5), phase: .rest, items: [], tags: [:], nested: [],
                   optional: "ü✓\u{01}", present: nil, data: Data(), url: URL(fileURLWithPath: "/tmp/x"), big: 0, small: 0),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        for value in values {
            let reference = try JSONValue(parsing: encoder.encode(value))
            XCTAssertEqual(try JSONValue(encoding: value), reference)
            XCTAssertEqual(try JSONValue(encoding: value).serialized(), reference.serialized())
        }
        XCTAssertEqual(try JSONValue(encoding: [1, 2]), [1, 2])
        XCTAssertEqual(try JSONValue(encoding: "plain"), "plain")
        // The special types at the root and inside containers, as JSONEncoder writes them.
        XCTAssertEqual(try JSONValue(encoding: Date(timeIntervalSince1970: 0)), "1970-01-01T00:00:00Z")
        XCTAssertEqual(try JSONValue(encoding: [Decimal(string: "12.5")!]), [12.5])
        XCTAssertEqual(try JSONValue(encoding: ["d": Data([1, 2])]), ["d": "AQI="])
        XCTAssertEqual(try JSONValue(encoding: [URL(string: "https://example.com/x")!]), ["https://example.com/x"])
    }
}
