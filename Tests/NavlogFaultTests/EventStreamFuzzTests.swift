import Foundation
import NavlogAnalysis
import NavlogEvents
import NavlogJournal
import NavlogTestSupport
import XCTest

/// Well-formed but senseless event streams: any kind in any order, screens never shown before,
/// causes that point forward or nowhere, session seqs and clocks that go back, sessions with
/// no start or with events after their end, and payloads whose members are missing or of the
/// wrong type. Apps on phones record such journals (a runtime with a bug, a client that drops
/// events) and `POST /v1/ingest` takes them, so everything that reads a journal must read
/// them: no trap, the same report from a journal as from its events, and every command
/// answering with an exit code of its own.
///
/// It found a trap in the report for a screen whose type no push or present had asked for
/// (a window's root), which took navlogd down at `GET /ui/api/report`.
final class EventStreamFuzzTests: XCTestCase {
    private static let subjects = ["AppCoordinator#1", "HomeCoordinator#2", "HomePresenter#1", "HomeViewModel#1", "Session#1", "X", "#", ""]
    private static let screens = ["Home#1", "Home#2", "Detail#1", "Detail#2", "Tabs#1", "Sheet#1", "NavigationStack#1", "Weird", "#", "Home#"]
    private static let members = ["stack", "to", "tabs", "child", "outcome", "app", "viewmodel", "root", "content", "removed", "bound",
                                  "changed", "level", "snapshot", "previous", "depth", "style", "by", "from", "window", "element"]
    /// Every kind an app records (`journal.dropped` is the writer's own).
    private static let kinds = EventKind.allKnown.filter { $0 != .journalDropped }

    /// `count` sessions of senseless events over two runs, from `seed`, in one seq order.
    private static func events(seed: UInt64, sessions count: Int) -> [Event] {
        var random = Mutator(seed: seed)
        func pick<T>(_ values: [T]) -> T { values[random.below(values.count)] }
        func value(depth: Int = 0) -> JSONValue {
            switch random.below(depth > 1 ? 6 : 9) {
            case 0: return .null
            case 1: return .bool(random.below(2) == 0)
            case 2: return .int(Int64(random.below(7)) - 2)
            case 3: return .double(Double(random.below(100)) / 7)
            case 4, 5: return .string(pick(screens + subjects))
            case 6: return .array((0..<random.below(4)).map { _ in random.below(3) == 0 ? value(depth: depth + 1) : .string(pick(screens)) })
            default:
                var object: [String: JSONValue] = [:]
                for _ in 0..<random.below(5) { object[pick(members + ["title", "count"])] = value(depth: depth + 1) }
                return .object(object)
            }
        }
        var streams: [[Event]] = []
        for index in 0..<count {
            let run = "r-\(index % 2)"
            let session = "s-\(index / 2 + 1)"
            var stream: [Event] = []
            var sessionSeq: UInt64 = 0
            var time: UInt64 = 1_000_000_000 * UInt64(index + 1)
            func add(_ kind: EventKind, subject: String? = nil, payload: JSONValue? = nil) {
                // Seqs and clocks mostly advance; now and then they repeat or go back.
                switch random.below(20) {
                case 0: sessionSeq = sessionSeq > 2 ? sessionSeq - 2 : sessionSeq
                case 1: break
                default: sessionSeq += 1 + UInt64(random.below(2))
                }
                time = random.below(25) == 0 ? time - min(time, 5_000_000) : time + UInt64(random.below(400)) * 1_000_000
                var body: [String: JSONValue] = [:]
                for _ in 0..<random.below(5) { body[pick(members)] = value() }
                let screen: String? = random.below(3) == 0 ? nil : pick(screens)
                let cause: UInt64? = random.below(4) == 0 ? nil : UInt64(random.below(Int(sessionSeq) + 4))
                stream.append(Event(
                    wallNanoseconds: 1_796_083_200_000_000_000 + Int64(time), monotonicNanoseconds: time, run: run, session: session,
                    sessionSeq: sessionSeq, kind: kind, subject: subject ?? pick(subjects), screen: screen, cause: cause,
                    parent: random.below(3) == 0 ? pick(subjects) : nil, payload: payload ?? (random.below(8) == 0 ? value() : .object(body))))
            }
            if random.below(5) > 0 { add(.sessionStart, subject: "Session#1", payload: random.below(4) == 0 ? value() : ["app": .string(pick(["tabs", "demo"]))]) }
            for _ in 0..<random.below(120) { add(pick(kinds)) }
            if random.below(4) > 0 { add(.sessionEnd, subject: "Session#1") }
            // Now and then something after the end.
            if random.below(6) == 0 { add(pick([.screenPush, .viewModelChange, .action])) }
            streams.append(stream)
        }
        // Sessions interleave, each in its own order.
        var merged: [Event] = []
        var positions = [Int](repeating: 0, count: streams.count)
        while case let left = positions.indices.filter({ positions[$0] < streams[$0].count }), !left.isEmpty {
            let index = pick(left)
            merged.append(streams[index][positions[index]])
            positions[index] += 1
        }
        return merged
    }

    private func writeJournal(_ events: [Event], blockSize: Int) throws -> String {
        let directory = makeTemporaryDirectory(self, name: "fuzz-\(UUID().uuidString.prefix(8))")
        let writer = try JournalWriter(configuration: JournalConfiguration(directory: directory, blockSize: blockSize))
        for event in events { writer.record(event) }
        try writer.close()
        return directory
    }

    /// The report of the journal read as interned events equals the report of its events read
    /// one by one, with funnels and a breakdown; neither traps.
    func testSenselessStreamsAreReportedAlikeFromAJournalAndFromItsEvents() throws {
        let options = ReportOptions(funnels: [Funnel(name: "f", steps: ["Home", "Detail"])], breakdownLabels: ["app"])
        for seed in UInt64(1)...60 {
            let directory = try writeJournal(Self.events(seed: seed, sessions: 1 + Int(seed % 6)), blockSize: 1 + Int(seed % 50))
            let interned = try FlowReport.read(journals: [directory], options: options).value
            var builder = ReportBuilder(options: options)
            let reader = JournalReader(paths: [directory])
            for run in try reader.runs() { builder.addRun(id: run.id, labels: run.labels) }
            var events = reader.events(matching: EventFilter())
            while let event = try events.next() { builder.consume(event) }
            XCTAssertEqual(interned, builder.finish(), "seed \(seed)")
            _ = try DiffSide.read(journals: [directory], settings: DiffSettings())
        }
    }

    /// Every command that reads journals answers such a journal with an exit code of its own
    /// (0, 1 for a finding, 2 when it cannot), never a signal.
    func testEveryReadingCommandAnswersSenselessStreams() throws {
        let navlog = productPath("navlog")
        for seed in UInt64(100)...107 {
            let base = try writeJournal(Self.events(seed: seed, sessions: 6), blockSize: 7)
            let candidate = try writeJournal(Self.events(seed: seed + 50, sessions: 6), blockSize: 64)
            let baseline = makeTemporaryDirectory(self, name: "baseline-\(seed)") + "/base.navlog-baseline"
            var commands: [[String]] = [
                ["show", base], ["show", "-o", "json", base], ["verify", base], ["tail", "-n", "5", base],
                ["diff", base, candidate], ["diff", "-o", "json", candidate, base], ["baseline", "save", "-j", base, "-o", baseline],
                ["report", "--funnel", "Home,Detail", "--from", "Home", "--breakdown", "app", base],
            ]
            for format in ["text", "json", "markdown", "dot", "mermaid", "html"] { commands.append(["report", "-o", format, base]) }
            for format in ["ndjson", "otlp-json", "chrome-trace", "clickhouse"] { commands.append(["export", "--format", format, candidate]) }
            commands.append(["export", "--format", "clickhouse", "--table", "visits", candidate])
            commands.append(["export", "--format", "otlp-json", "--otlp-logs", base])
            for arguments in commands {
                let result = try runTool(navlog, arguments)
                XCTAssertTrue([0, 1, 2].contains(result.status), "seed \(seed): navlog \(arguments.joined(separator: " ")) exited \(result.status)\n\(result.stderr.prefix(2000))")
                XCTAssertFalse(result.stderr.contains("crashed"), "seed \(seed): navlog \(arguments.joined(separator: " "))\n\(result.stderr.prefix(2000))")
            }
        }
    }
}
