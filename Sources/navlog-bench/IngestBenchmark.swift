import Foundation
import Synchronization
import NavlogDaemon
import NavlogEvents
import NavlogHTTPClient
import NavlogHost
import NavlogJournal
import NavlogRemote
import NavlogSampleApps

/// The ingest part: clients posting batches of events to the daemon's `POST /v1/ingest`, beside
/// the journal writer's own rate on the same events (measured before and after, so both see the
/// host's drift), and the cost of a `RemoteEventSink.record` call.
enum IngestBenchmark {
    struct Result {
        var clients: Int
        var events: Int
        var batchSize: Int
        var journalEventsPerSecond: Double
        var ingestEventsPerSecond: Double
        var ratio: Double { ingestEventsPerSecond / journalEventsPerSecond }
        var sinkMedianNanoseconds: UInt64
        var sinkP99Nanoseconds: UInt64
        var sinkEvents: Int

        var lines: [String] {
            [
                "ingest: \(clients) clients posting gzipped batches of \(batchSize) events: \(String(format: "%.0f", ingestEventsPerSecond)) events/s "
                    + "(\(events) events, answered and committed); journal writer on the same events \(String(format: "%.0f", journalEventsPerSecond)) events/s; "
                    + "ingest / journal = \(String(format: "%.3f", ratio)) (target >= 0.5: \(ratio >= 0.5 ? "met" : "MISSED"))",
                "remote sink call: RemoteEventSink.record median \(sinkMedianNanoseconds) ns, p99 \(sinkP99Nanoseconds) ns over \(sinkEvents) calls "
                    + "(target median <= 1000 ns: \(sinkMedianNanoseconds <= 1000 ? "met" : "MISSED"))",
            ]
        }

        var json: [String: JSONValue] {
            [
                "ingest_events_per_second": .double(ingestEventsPerSecond.rounded()),
                "ingest_journal_events_per_second": .double(journalEventsPerSecond.rounded()),
                "ingest_ratio_vs_journal": .double(ratio),
                "remote_sink_record_median_ns": .int(Int64(sinkMedianNanoseconds)),
                "remote_sink_record_p99_ns": .int(Int64(sinkP99Nanoseconds)),
            ]
        }
    }

    static func run(directory: String, events: [Event], clients: Int, batchSize: Int = 1000, sinkEvents: Int) async throws -> Result {
        let catalog = try AppCatalog(SampleApps.all)
        var configuration = try DaemonConfiguration(parsing: "{}", catalog: catalog)
        configuration.journal.directory = directory + "/ingest-daemon-journal"
        configuration.listen.unixSocket = nil
        configuration.listen.tcp = .init(host: "127.0.0.1", port: 0)
        configuration.ingest.eventsPerSecond = 1 << 40
        configuration.ingest.maximumOpenSessions = 10_000_000
        configuration.limits.maximumBodyBytes = 4 << 20

        let before = try journalRate(events, configuration: configuration, directory: directory + "/ingest-baseline-1")
        let daemon = Daemon(configuration: configuration, catalog: catalog, log: Logger(minimumLevel: .warn))
        guard let port = try await daemon.start().tcpPort else { throw BenchmarkError("the daemon has no TCP port") }
        let ingestRate = try post(events, port: port, clients: clients, batchSize: batchSize)
        let sink = try sinkCost(events, port: port, directory: directory + "/ingest-spool", count: sinkEvents)
        try await daemon.stop()
        let after = try journalRate(events, configuration: configuration, directory: directory + "/ingest-baseline-2")
        return Result(clients: clients, events: events.count, batchSize: batchSize, journalEventsPerSecond: (before + after) / 2,
                      ingestEventsPerSecond: ingestRate, sinkMedianNanoseconds: sink.median, sinkP99Nanoseconds: sink.p99, sinkEvents: sinkEvents)
    }

    /// The journal writer's rate on `events`, with the daemon's journal settings: record all, close.
    static func journalRate(_ events: [Event], configuration: DaemonConfiguration, directory: String) throws -> Double {
        var journal = configuration.makeJournalConfiguration()
        journal.directory = directory
        let writer = try JournalWriter(configuration: journal)
        let start = monotonicSeconds()
        for event in events { writer.record(event) }
        try writer.close()
        return Double(events.count) / (monotonicSeconds() - start)
    }

    /// Posts `events` from `clients` threads (each its own runs and keep-alive connection),
    /// in gzipped batches built beforehand; returns events per second, counted until every
    /// answer came and the daemon committed them all.
    static func post(_ events: [Event], port: Int, clients: Int, batchSize: Int) throws -> Double {
        var bodies: [[(key: String, body: [UInt8])]] = Array(repeating: [], count: clients)
        let deflater = try Deflater(level: 6, format: .gzip)
        for (number, start) in stride(from: 0, to: events.count, by: batchSize).enumerated() {
            let client = number % clients
            var text = ""
            for var event in events[start..<min(events.count, start + batchSize)] {
                event.run = "r-bench-\(client)"
                text += event.jsonLine()
                text += "\n"
            }
            bodies[client].append(("bench-\(client)-\(number)", try deflater.compressAll(Array(text.utf8))))
        }
        let batches = bodies
        let failures = FailureList()
        let started = monotonicSeconds()
        // One thread per client (concurrentPerform would run only as many at once as cores).
        let group = DispatchGroup()
        for client in 0..<clients {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                postAll(batches[client], client: client, port: port, failures: failures)
            }
        }
        group.wait()
        // The rotation commits what is queued: the events are on disk, not only answered for.
        let rotated = try HTTPClient().send(HTTPRequest(method: "POST", url: "http://127.0.0.1:\(port)/v1/journal/rotate"))
        let seconds = monotonicSeconds() - started
        if let first = failures.first { throw BenchmarkError("ingest failed: \(first)") }
        guard rotated.status == 200 else { throw BenchmarkError("rotate answered \(rotated.status)") }
        return Double(events.count) / seconds
    }

    /// Posts one client's `batches` over one keep-alive connection; failures are listed.
    private static func postAll(_ batches: [(key: String, body: [UInt8])], client: Int, port: Int, failures: FailureList) {
        do {
            let connection = try HTTPClient()
            defer { connection.close() }
            for (key, body) in batches {
                let response = try connection.send(HTTPRequest(
                    method: "POST", url: "http://127.0.0.1:\(port)/v1/ingest?source=bench-\(client)",
                    headers: ["Content-Encoding": "gzip", "Idempotency-Key": key, "Content-Type": "application/x-ndjson"], body: body))
                if response.status != 200 { failures.add("client \(client): \(response.status) \(String(decoding: response.body.prefix(300), as: UTF8.self))") }
            }
        } catch {
            failures.add("client \(client): \(error)")
        }
    }

    /// The cost of `RemoteEventSink.record`, timed call by call: median and p99 in nanoseconds.
    static func sinkCost(_ events: [Event], port: Int, directory: String, count: Int) throws -> (median: UInt64, p99: UInt64) {
        let sink = try RemoteEventSink(configuration: RemoteSinkConfiguration(
            url: "http://127.0.0.1:\(port)", source: "bench-sink", spoolDirectory: directory, spoolBytes: 1 << 30))
        var durations = [UInt64](repeating: 0, count: count)
        var reading = timespec()
        for index in 0..<count {
            clock_gettime(CLOCK_MONOTONIC, &reading)
            let before = UInt64(reading.tv_sec) * 1_000_000_000 + UInt64(reading.tv_nsec)
            sink.record(events[index % events.count])
            clock_gettime(CLOCK_MONOTONIC, &reading)
            durations[index] = UInt64(reading.tv_sec) * 1_000_000_000 + UInt64(reading.tv_nsec) - before
        }
        guard sink.flush(timeout: .seconds(120)) else { throw BenchmarkError("the remote sink did not deliver: \(sink.statistics)") }
        sink.close()
        durations.sort()
        return (durations[count / 2], durations[count * 99 / 100])
    }
}

/// Failures reported by the load threads.
private final class FailureList: Sendable {
    private let items = Mutex<[String]>([])

    func add(_ text: String) { items.withLock { $0.append(text) } }
    var first: String? { items.withLock { $0.first } }
}
