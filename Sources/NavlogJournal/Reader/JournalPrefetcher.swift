import Foundation
import NavlogEvents
import Synchronization

/// Reads journal files on a thread of its own, a page of events at a time, while the caller
/// works on the page before: reading (SQLite, inflating, decoding) and what the caller does
/// with the events run on two cores instead of one.
///
/// Files are read one after another, in the order given, so the events of one directory come
/// in seq order. At most `depth` pages wait in memory, so memory stays bounded whatever the
/// size of the journal. An error ends the stream: ``next()`` throws it (naming the file) once
/// the pages before it are handed out. Once ``next()`` returned nil, ``gaps`` lists the seqs
/// missing without a `journal.dropped` record that accounts for them.
///
/// ```swift
/// let pages = JournalPrefetcher(reader: JournalReader(paths: ["journal"]))
/// while let page = try pages.next() {
///     page.forEachEvent { builder.consume($0) }
/// }
/// for gap in pages.gaps { warn("\(gap)") }
/// ```
public final class JournalPrefetcher: Sendable {
    /// Events of one file, in seq order.
    public struct Page: Sendable {
        /// The position of the file in the list given.
        public var fileIndex: Int
        public var file: String
        public var events: [Event]

        /// Calls `body` with each event in turn, lent in place rather than copied out of the
        /// page (a copy retains and releases every string and payload of the event).
        public func forEachEvent(_ body: (Event) throws -> Void) rethrows {
            // Reading `buffer[index]` into an argument copies the event (a retain and a release
            // of each of its strings and its payload); an `inout` access lends it in place.
            // Nothing writes through the pointer.
            func lend(_ event: inout Event) throws { try body(event) }
            try events.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                for index in buffer.indices { try lend(&UnsafeMutablePointer(mutating: base + index).pointee) }
            }
        }
    }

    /// Events of one file, in seq order, as ``InternedEvent``s: what ``init(interning:filter:depth:)``
    /// hands out.
    public struct InternedPage: Sendable {
        /// The position of the file in the list given.
        public var fileIndex: Int
        public var file: String
        public var events: [InternedEvent]
        /// What the events point to: their lists and `session.start` payloads.
        public var storage: InternedEventStorage
        /// The names the reader added to its ``NameTable`` since the page before, in order: a
        /// table the caller keeps with them gives the same ids.
        public var newNames: [String]
        /// The run and name of each session the file's pages numbered since the page before,
        /// in order; each file numbers its sessions from 0 again.
        public var newSessions: [SessionIdentity]
    }

    private let channel = Channel()

    /// Starts reading the files of `reader` with `filter`, keeping at most `depth` pages ahead;
    /// the files of each of its paths (a directory's, one writer's) are checked for gaps together.
    public convenience init(reader: JournalReader, filter: EventFilter = EventFilter(), depth: Int = 4) {
        let sources = reader.paths.map { JournalSource(path: $0).listFiles() }
        let sourceOfFile = sources.indices.flatMap { index in [Int](repeating: index, count: sources[index].count) }
        self.init(files: sources.flatMap { $0 }, sourceOfFile: sourceOfFile, filter: filter, depth: depth)
    }

    /// Starts reading `files` with `filter`, keeping at most `depth` pages ahead; each file is
    /// checked for gaps on its own.
    public convenience init(files: [String], filter: EventFilter = EventFilter(), depth: Int = 4) {
        self.init(files: files, sourceOfFile: Array(files.indices), filter: filter, depth: depth)
    }

    /// Starts reading the files of `reader` with `filter` into ``InternedPage``s, which
    /// ``nextInterned()`` hands out, keeping at most `depth` pages ahead.
    public convenience init(interning reader: JournalReader, filter: EventFilter = EventFilter(), depth: Int = 4) {
        let sources = reader.paths.map { JournalSource(path: $0).listFiles() }
        let sourceOfFile = sources.indices.flatMap { index in [Int](repeating: index, count: sources[index].count) }
        self.init(files: sources.flatMap { $0 }, sourceOfFile: sourceOfFile, filter: filter, depth: depth, interning: true)
    }

    /// Starts reading; files with the same `sourceOfFile` number share one seq sequence.
    private init(files: [String], sourceOfFile: [Int], filter: EventFilter, depth: Int, interning: Bool = false) {
        let channel = self.channel
        channel.setDepth(depth)
        // The thread holds the channel, not `self`: dropping the prefetcher cancels it.
        let thread = Thread {
            if interning {
                Self.readInterned(files: files, sourceOfFile: sourceOfFile, filter: filter, into: channel)
            } else {
                Self.read(files: files, sourceOfFile: sourceOfFile, filter: filter, into: channel)
            }
            channel.finished.signal()
        }
        thread.name = "navlog-prefetch"
        thread.start()
    }

    /// Stops the reader and waits for it, so its files are closed when this returns.
    deinit {
        channel.cancel()
        channel.finished.wait()
    }

    /// Seqs missing, with no `journal.dropped` record that accounts for them, from the files
    /// read; complete once ``next()`` returned nil (empty before).
    public var gaps: [JournalGap] { channel.gaps }

    /// Returns the next page, or nil after the last one; throws the error that ended reading.
    public func next() throws -> Page? {
        guard case .page(let page) = try channel.take() else { return nil }
        return page
    }

    /// Returns the next page of a prefetcher made to intern, or nil after the last one;
    /// throws the error that ended reading.
    public func nextInterned() throws -> InternedPage? {
        guard case .interned(let page) = try channel.take() else { return nil }
        return page
    }

    /// Calls `body` with each page in turn, and hands each page back to the reading thread
    /// once `body` returns, so freeing its events costs that thread, not this one, unless
    /// that thread is the slower one (see `Channel.recycle`).
    public func forEach(_ body: (Page) throws -> Void) throws {
        while var page = try next() {
            try body(page)
            // Hand the events over without a copy, so the freeing happens over there.
            channel.recycle(&page.events)
        }
    }

    /// Stops the reader at its next page: ``next()`` hands out what is queued, then nil.
    public func cancel() {
        channel.cancel()
    }

    private static func read(files: [String], sourceOfFile: [Int], filter: EventFilter, into channel: Channel) {
        var coverage: [Int: SeqCoverage] = [:]
        for (index, file) in files.enumerated() {
            var iterator = JournalReader(paths: [file]).events(matching: filter)
            do {
                while let events = try iterator.nextBatch() {
                    channel.freeRecycled()
                    guard channel.put(.page(Page(fileIndex: index, file: file, events: events))) else { return }
                }
            } catch {
                channel.put(final: .failure(JournalError.wrapping(error, path: file)))
                return
            }
            coverage[sourceOfFile[index], default: SeqCoverage()].merge(iterator.coverage)
        }
        channel.setGaps(coverage.keys.sorted().flatMap { coverage[$0]!.gaps(after: filter.after?.seq ?? 0) })
        channel.put(final: .end)
    }

    private static func readInterned(files: [String], sourceOfFile: [Int], filter: EventFilter, into channel: Channel) {
        var coverage: [Int: SeqCoverage] = [:]
        var names = NameTable()
        var namesSent = 0
        for (index, file) in files.enumerated() {
            do {
                let reader = try JournalFileReader(path: file, filter: filter)
                defer { reader.close() }
                // Two blocks a page (today's 8192-event blocks; up to four older, smaller
                // ones), decoded on other threads while the page before is interned here.
                func start(after seq: UInt64) -> Result<JournalFileReader.DecodingPage?, any Error> {
                    Result { try reader.startDecoding(after: seq, blockLimit: 4, eventBudget: 16384) }
                }
                var next = start(after: filter.after?.seq ?? 0)
                while let page = try next.get() {
                    next = start(after: page.lastSeq)
                    var newSessions: [SessionIdentity] = []
                    let interned = try reader.internedEvents(of: page, names: &names, newSessions: &newSessions)
                    if let through = interned.scannedThrough, through < page.lastSeq {
                        // A damaged block ended the page: start again at it, so it is reported.
                        if case .success(let ahead?) = next { ahead.wait() }
                        next = start(after: through)
                    }
                    if interned.events.isEmpty && newSessions.isEmpty { continue }
                    let newNames = Array(names.names(from: namesSent))
                    namesSent = names.count
                    let item = InternedPage(fileIndex: index, file: file, events: interned.events, storage: interned.storage,
                                             newNames: newNames, newSessions: newSessions)
                    guard channel.put(.interned(item)) else { return }
                }
                coverage[sourceOfFile[index], default: SeqCoverage()].merge(try reader.coverage())
            } catch {
                channel.put(final: .failure(JournalError.wrapping(error, path: file)))
                return
            }
        }
        channel.setGaps(coverage.keys.sorted().flatMap { coverage[$0]!.gaps(after: filter.after?.seq ?? 0) })
        channel.put(final: .end)
    }

    // MARK: - The queue between the two threads

    private enum Item: Sendable {
        case page(Page)
        case interned(InternedPage)
        case failure(any Error)
        case end

        var isPage: Bool {
            switch self {
            case .page, .interned: true
            case .failure, .end: false
            }
        }
    }

    private final class Channel: Sendable {
        private struct State {
            var items: [Item] = []
            var head = 0
            var isClosed = false
            /// Pages the caller is done with, freed by the reading thread.
            var recycled: [[Event]] = []
            var gaps: [JournalGap] = []
        }

        private let state = Mutex(State())
        /// Free places in the queue: the reader waits on it before queuing a page.
        private let free = DispatchSemaphore(value: 0)
        /// Items in the queue: ``take()`` waits on it.
        private let ready = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)

        var gaps: [JournalGap] { state.withLock { $0.gaps } }

        /// Sets the gaps found, before the end is queued.
        func setGaps(_ gaps: [JournalGap]) {
            state.withLock { $0.gaps = gaps }
        }

        func setDepth(_ depth: Int) {
            for _ in 0..<max(1, depth) { free.signal() }
        }

        /// Queues a page once there is room; false when the channel is closed.
        func put(_ item: Item) -> Bool {
            free.wait()
            let isQueued = state.withLock { state -> Bool in
                guard !state.isClosed else { return false }
                state.items.append(item)
                return true
            }
            if isQueued { ready.signal() }
            return isQueued
        }

        /// Queues the last item (the end or an error) and closes the channel.
        func put(final item: Item) {
            let isQueued = state.withLock { state -> Bool in
                guard !state.isClosed else { return false }
                state.items.append(item)
                state.isClosed = true
                return true
            }
            if isQueued { ready.signal() }
        }

        /// Takes `events` away (leaving it empty) without copying: a copy would leave a
        /// reference with the caller that might turn out to be the last one.
        ///
        /// The reading thread frees the page while the caller has pages waiting (the caller
        /// is the slower side). When none is waiting, the reader is the slower side and the
        /// caller would only wait for it, so the caller frees the page itself meanwhile.
        func recycle(_ events: inout [Event]) {
            let isReaderBehind = state.withLock { state -> Bool in
                if state.head < state.items.count, state.items[state.head].isPage {
                    state.recycled.append([])
                    swap(&state.recycled[state.recycled.count - 1], &events)
                    return false
                }
                return true
            }
            if isReaderBehind { events = [] }
        }

        /// Frees the recycled pages here, outside the lock.
        func freeRecycled() {
            var pages: [[Event]] = []
            state.withLock { swap(&pages, &$0.recycled) }
            pages.removeAll()
        }

        func cancel() {
            put(final: .end)
            free.signal()
        }

        /// The next page (of either kind), or `.end`.
        func take() throws -> Item {
            ready.wait()
            let item = state.withLock { state -> Item in
                let item = state.items[state.head]
                guard item.isPage else { return item }
                state.items[state.head] = .end
                state.head += 1
                if state.head == state.items.count {
                    state.items.removeAll(keepingCapacity: true)
                    state.head = 0
                }
                return item
            }
            switch item {
            case .page, .interned:
                free.signal()
                return item
            case .failure(let error):
                // Stays queued: every later call throws it too.
                ready.signal()
                throw error
            case .end:
                ready.signal()
                return .end
            }
        }
    }
}
