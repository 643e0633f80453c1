import Foundation
import NavlogEvents
import NavlogJournal

// MARK: - Events

extension DaemonAPI {
    /// `GET /v1/events?session=…&kind=…&format=ndjson|sse&after=CURSOR&text=true`: a live
    /// stream; with `text=true` each event carries its `navlog show` lines in place of its payload.
    ///
    /// With `after`, committed events after the cursor come first from the journal, then the
    /// live ones, without gaps or repeats. A `Last-Event-ID` header (an SSE client reconnecting)
    /// is such a cursor too, and wins over `after`, which is where the first connection began.
    func streamEvents(_ request: HTTPRequest) -> HTTPReply {
        guard state.load(ordering: .sequentiallyConsistent) == .running else { return .response(APIError.shuttingDown.response) }
        let formatName = request.queryValues("format").last
        let format: EventSubscription.Format
        switch formatName {
        case "sse"?: format = .sse
        case "ndjson"?: format = .ndjson
        case nil: format = (request.headers["accept"] ?? "").contains("text/event-stream") ? .sse : .ndjson
        case let other?: return .response(APIError.invalidField("format", "ndjson or sse", got: .string(other)).response)
        }
        let addsText: Bool
        switch request.queryValues("text").last {
        case nil, "false"?: addsText = false
        case "true"?: addsText = true
        case let other?: return .response(APIError.invalidField("text", "true or false", got: .string(other)).response)
        }
        var maximumRate: Int?
        if let text = request.queryValues("max_rate").last {
            guard let rate = Int(text), (1...1_000_000).contains(rate) else {
                return .response(APIError.invalidField("max_rate", "events a second, an integer from 1 to 1000000", got: .string(text)).response)
            }
            maximumRate = rate
        }
        let sessions = request.queryValues("session")
        let kinds = request.queryValues("kind")
        var cursor: JournalCursor?
        if let text = request.headers["last-event-id"]?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            guard let parsed = JournalCursor(text) else {
                return .response(APIError.invalidField("Last-Event-ID", "a journal cursor (nl1-…), the id of an event this stream sent", got: .string(text)).response)
            }
            cursor = parsed
        } else if let text = request.queryValues("after").last {
            guard let parsed = JournalCursor(text) else {
                return .response(APIError.invalidField("after", "a journal cursor (nl1-…)", got: .string(text)).response)
            }
            cursor = parsed
        }
        let subscription = EventSubscription(
            format: format, sessions: sessions.isEmpty ? nil : Set(sessions), kinds: kinds.isEmpty ? nil : Set(kinds.map(EventKind.init(rawValue:))),
            capacity: settings.withLock { $0.streamBufferEvents }, addsText: addsText, maximumRate: maximumRate
        )
        if let cursor {
            subscription.beginReplay()
            broadcaster.add(subscription)
            let filter = EventFilter(sessions: subscription.sessions, kinds: subscription.kinds, after: cursor)
            Task { [journal, log] in await Self.replay(journal: journal, filter: filter, into: subscription, log: log) }
        } else {
            broadcaster.add(subscription)
        }
        let contentType = format == .sse ? "text/event-stream" : "application/x-ndjson"
        return .stream(status: 200, headers: [("Content-Type", contentType), ("Cache-Control", "no-store")], source: subscription)
    }

    /// Commits what was recorded before the subscription, then feeds the journal's events after
    /// the cursor into it.
    static func replay(journal: JournalWriter, filter: EventFilter, into subscription: EventSubscription, log: Logger) async {
        defer { subscription.endReplay() }
        do {
            try await journal.flush()
            var iterator = JournalReader(paths: [journal.configuration.directory]).events(matching: filter)
            var batch: [Event] = []
            while let event = try iterator.next() {
                batch.append(event)
                if batch.count == 256 {
                    guard await subscription.replay(batch) else { return }
                    batch.removeAll(keepingCapacity: true)
                }
            }
            if !batch.isEmpty { _ = await subscription.replay(batch) }
        } catch {
            log.warn("event replay stopped", ["error": "\(error)"])
        }
    }
}
