import Foundation
import NavlogEvents
import NavlogExport
import NavlogJournal

/// The push's work, on its own thread: read the journal after the cursor, feed the spans to
/// the collector in batches, retry with back-off, persist the cursor after each batch.
///
/// Nothing here touches recording: the journal writer and the API never wait for it.
final class OTLPPushLoop {
    private let settings: DaemonConfiguration.OTLPSettings
    private let directory: String
    private let metrics: OTLPPushMetrics
    private let log: Logger
    private let control: PushControl
    private let exporter: OTLPHTTPExporter
    private var ledger: SpanLedger
    private var savedCursor: PushCursor?
    private var runLabels: [String: [String: String]] = [:]
    /// The last journal read error logged, so a damaged file is reported once, not each pass.
    private var lastReadError: String?
    /// Failed attempts in a row; the first is a warning, the rest debug lines until success.
    private var failuresInARow = 0

    init(settings: DaemonConfiguration.OTLPSettings, directory: String, metrics: OTLPPushMetrics, log: Logger, control: PushControl) throws {
        self.settings = settings
        self.directory = directory
        self.metrics = metrics
        self.log = log
        self.control = control
        exporter = try OTLPHTTPExporter(settings: settings)
        let cursorPath = directory + "/" + PushCursor.fileName
        do {
            savedCursor = try PushCursor.load(path: cursorPath)
        } catch {
            log.warn("otlp push cursor unreadable; pushing the journal from its start", ["error": "\(error)"])
        }
        ledger = SpanLedger(resuming: savedCursor ?? PushCursor())
        metrics.recordSettled(seq: ledger.settledSeq)
    }

    private var cursorPath: String { directory + "/" + PushCursor.fileName }

    // MARK: - Running

    /// Runs until told to stop, or until a drain has sent what the journal holds.
    func run() {
        log.info("otlp push started", ["endpoint": settings.endpoint.description, "resume_after": ledger.readPosition?.description ?? "start"])
        while true {
            let command = control.command
            if command == .stop { break }
            guard pass() else { break }
            if case .drain = command { break }
            control.wait(for: .milliseconds(settings.intervalMilliseconds))
        }
        save()
        let isComplete = ledger.pending.isEmpty
        log.log(isComplete ? .info : .warn, "otlp push stopped", [
            "settled_through_seq": String(ledger.settledSeq), "spans_unsent": String(ledger.pending.count),
            "spans_pushed": String(metrics.spansPushed),
        ])
    }

    /// Reads everything the journal has after the cursor and sends it; returns false when told
    /// to stop (or a drain ran out of time) in the middle.
    private func pass() -> Bool {
        var events = JournalReader(paths: [directory]).events(matching: EventFilter(after: ledger.readPosition))
        var readErrors = 0
        while true {
            let event: Event?
            do {
                event = try events.next()
            } catch {
                // The iterator goes on with the next file; a bound keeps a broken directory from
                // spinning.
                readErrors += 1
                if "\(error)" != lastReadError { log.error("otlp push cannot read part of the journal; going on after it", ["error": "\(error)"]) }
                lastReadError = "\(error)"
                if readErrors > 64 { break }
                continue
            }
            guard let event else { break }
            ledger.consume(event)
            while ledger.pending.count >= settings.batchSize {
                guard deliver(settings.batchSize) else { return false }
            }
        }
        while !ledger.pending.isEmpty {
            guard deliver(min(settings.batchSize, ledger.pending.count)) else { return false }
        }
        save()
        return true
    }

    // MARK: - Delivering

    /// Sends the first `count` pending spans until the collector settles them; returns false
    /// when told to stop, or when a drain's deadline passes, first.
    private func deliver(_ count: Int) -> Bool {
        let batch = ledger.pending.prefix(count)
        let body: [UInt8]
        do {
            body = try exporter.makeBody(batch) { self.labels(of: $0) }
        } catch {
            log.error("otlp push cannot compress a batch", ["error": "\(error)"])
            return false
        }
        var backoff = Double(settings.retryInitialMilliseconds)
        while true {
            let command = control.command
            var timeout = Duration.milliseconds(settings.timeoutMilliseconds)
            switch command {
            case .stop:
                return false
            case .drain(let deadline):
                let remaining = deadline - .now
                guard remaining > .zero else { return false }
                timeout = min(timeout, remaining)
            case .run:
                break
            }
            switch exporter.send(body, timeout: timeout) {
            case .accepted(let rejected, let message):
                if failuresInARow > 0 { log.info("otlp collector reachable again", ["failed_attempts": String(failuresInARow)]) }
                failuresInARow = 0
                metrics.recordPushed(spans: count - min(rejected, count))
                if rejected > 0 { reportSkipped(batch, count: min(rejected, count), reason: "partial", detail: message) }
                return settle(count)
            case .tooLarge where count > 1:
                return deliver(count / 2) && deliver(count - count / 2)
            case .tooLarge:
                reportSkipped(batch, count: 1, reason: "too_large", detail: "HTTP 413 for one span")
                return settle(count)
            case .rejected(let status, let message):
                reportSkipped(batch, count: count, reason: "rejected", detail: "HTTP \(status)\(message.isEmpty ? "" : ": \(message)")")
                return settle(count)
            case .failed(let reason):
                metrics.recordFailure()
                failuresInARow += 1
                var wait = min(backoff * Double.random(in: 0.8...1.2), Double(settings.retryMaximumMilliseconds))
                if case .drain(let deadline) = command {
                    let remaining = deadline - .now
                    wait = min(wait, Double(remaining.components.seconds) * 1000 + Double(remaining.components.attoseconds) / 1e15)
                }
                log.log(failuresInARow == 1 ? .warn : .debug, "otlp push failed; retrying", [
                    "endpoint": settings.endpoint.description, "error": reason, "spans": String(count),
                    "retry_in_ms": String(Int(wait)), "attempt": String(failuresInARow),
                ])
                control.wait(for: .milliseconds(Int64(wait)))
                backoff = min(backoff * 2, Double(settings.retryMaximumMilliseconds))
            }
        }
    }

    /// Settles `count` spans and persists the cursor; always true, for `return settle(…)`.
    private func settle(_ count: Int) -> Bool {
        ledger.settle(count)
        save()
        return true
    }

    /// Logs and counts spans given up on, naming the events they came from.
    private func reportSkipped(_ batch: ArraySlice<SpanLedger.PendingSpan>, count: Int, reason: String, detail: String) {
        metrics.recordSkipped(count, reason: reason)
        let sessions = Set(batch.map { "\($0.span.run)/\($0.span.session)" }).sorted()
        log.warn("otlp collector refused spans; skipped", [
            "reason": reason, "spans": String(count), "detail": detail,
            "first_seq": String(batch.first?.seq ?? 0), "last_seq": String(batch.last?.seq ?? 0),
            "sessions": sessions.prefix(10).joined(separator: ","),
        ])
    }

    // MARK: - State

    /// Persists the cursor when it changed; a failure is logged, and retried at the next save.
    private func save() {
        let cursor = ledger.checkpoint()
        metrics.recordSettled(seq: ledger.settledSeq)
        guard cursor != savedCursor else { return }
        do {
            try cursor.save(path: cursorPath)
            savedCursor = cursor
        } catch {
            log.error("otlp push cannot save its cursor; a restart would send some spans again", ["error": "\(error)"])
        }
    }

    /// The labels of journal run `run`, for the OTLP resource, read from the journal once.
    private func labels(of run: String) -> [String: String] {
        if let labels = runLabels[run] { return labels }
        let runs = (try? JournalReader(paths: [directory]).runs()) ?? []
        for found in runs { runLabels[found.id] = found.labels }
        if runLabels[run] == nil { runLabels[run] = [:] }
        return runLabels[run]!
    }
}
