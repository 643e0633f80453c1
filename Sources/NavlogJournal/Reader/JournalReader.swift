import Foundation
import NavlogEvents

/// Reads events from journal files and directories, in seq order.
///
/// Each directory (one writer's journal) is read file after file; several directories are merged
/// by seq. A damaged file or block throws an error naming the file and seq range; calling
/// ``JournalEventIterator/next()`` again skips to the next file. Seqs missing from what was
/// read, with no `journal.dropped` record that accounts for them, are reported by
/// ``JournalEventIterator/gaps`` (and ``JournalPrefetcher/gaps``) once reading ends; the
/// events that are there are read all the same.
///
/// ```swift
/// let reader = JournalReader(paths: ["journal"])
/// var events = reader.events(matching: EventFilter(sessions: ["s-3"], kinds: [.screenPush]))
/// while let event = try events.next() { ... }
/// for gap in events.gaps { warn("\(gap)") }
/// ```
public struct JournalReader: Sendable {
    /// The files and directories read.
    public let paths: [String]

    public init(paths: [String]) {
        self.paths = paths
    }

    /// Returns an iterator over the events matching `filter`.
    public func events(matching filter: EventFilter = EventFilter()) -> JournalEventIterator {
        JournalEventIterator(sources: paths.map(JournalSource.init(path:)), filter: filter)
    }

    /// Returns every event matching `filter`; stops at the first error.
    public func allEvents(matching filter: EventFilter = EventFilter()) throws -> [Event] {
        var iterator = events(matching: filter)
        var events: [Event] = []
        while let event = try iterator.next() { events.append(event) }
        return events
    }

    /// The `.navlog` files under `paths`: directories listed, files taken as they are.
    public func files() -> [String] {
        paths.flatMap { JournalSource(path: $0).listFiles() }
    }

    /// The directories among `paths` that hold no `.navlog` file: reading one yields nothing,
    /// which is almost always a wrong path rather than a journal.
    public func directoriesWithoutFiles() -> [String] {
        paths.map(JournalSource.init(path:)).filter { $0.isDirectory && $0.listFiles().isEmpty }.map(\.path)
    }

    /// What is said of a directory that holds no journal file, after its path.
    public static let noFileMessage = "holds no journal file (no *.\(JournalDirectory.fileExtension) directly inside it)"

    /// How many events the files under `paths` hold, from their blocks' rows (no block is
    /// inflated): the total a progress line counts towards when a filter leaves every event in
    /// (``EventFilter/keepsEveryEvent``). Nil when a file cannot be read; reading it then says why.
    public func storedEventCount() -> Int? {
        var total = 0
        for path in files() {
            guard let file = try? JournalFile.openForReading(path: path) else { return nil }
            defer { file.close() }
            guard let count = try? file.database.scalar("SELECT coalesce(sum(event_count), 0) FROM \(file.schemaPrefix)block")?.integer
            else { return nil }
            total += Int(count)
        }
        return total
    }
}

/// A file, or a directory whose files follow one another in seq order.
struct JournalSource {
    let path: String

    var isDirectory: Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &flag) && flag.boolValue
    }

    func listFiles() -> [String] {
        isDirectory ? JournalDirectory.listFiles(in: path) : [path]
    }
}

/// Events of several sources merged in seq order; `next()` throws errors naming the file.
public struct JournalEventIterator {
    private var groups: [GroupState]
    private let filter: EventFilter
    /// Whether a newest file that a writer is still creating is passed over for now
    /// (following: a later read takes it) rather than refused as not a journal.
    public var waitsForNewestFile = false

    init(sources: [JournalSource], filter: EventFilter) {
        self.filter = filter
        groups = sources.map { GroupState(source: $0, lastSeq: filter.after?.seq ?? 0) }
    }

    /// Seqs missing from the files read to their end so far (every file, once ``next()`` or
    /// ``nextBatch(limit:)`` returned nil), after the filter's cursor, that no
    /// `journal.dropped` record accounts for.
    public var gaps: [JournalGap] {
        groups.flatMap { $0.coverage.gaps(after: filter.after?.seq ?? 0) }
    }

    /// What the files read to their end hold and account for, all sources together (for a
    /// reader of a single source).
    var coverage: SeqCoverage {
        groups.reduce(into: SeqCoverage()) { $0.merge($1.coverage) }
    }

    /// Returns the next event, nil when every source is exhausted (for now, when following).
    public mutating func next() throws -> Event? {
        var best: Int?
        for index in groups.indices {
            try fill(index)
            guard let head = groups[index].headSeq else { continue }
            if let current = best, groups[current].headSeq! <= head { continue }
            best = index
        }
        guard let best else { return nil }
        return groups[best].take()
    }

    /// Returns the next events in seq order, as many as one page of blocks holds (at least
    /// one), or nil when every source is exhausted (for now, when following).
    ///
    /// With one source the page is handed over whole, without copying an event; with several,
    /// up to `limit` events are merged one by one.
    public mutating func nextBatch(limit: Int = 8192) throws -> [Event]? {
        if groups.count == 1 {
            try fill(0)
            return groups[0].takeAll()
        }
        var batch: [Event] = []
        while batch.count < max(1, limit), let event = try next() { batch.append(event) }
        return batch.isEmpty ? nil : batch
    }

    /// Loads the next page of group `index` when its buffer is empty, moving on to later files.
    private mutating func fill(_ index: Int) throws {
        while groups[index].headSeq == nil {
            if groups[index].files == nil { groups[index].files = groups[index].source.listFiles() }
            if groups[index].reader == nil {
                guard groups[index].nextFile < groups[index].files!.count else { return }
                let path = groups[index].files![groups[index].nextFile]
                groups[index].nextFile += 1
                let isNewest = groups[index].nextFile == groups[index].files!.count
                do {
                    groups[index].reader = try JournalFileReader(path: path, filter: filter)
                } catch JournalError.notAJournal(_, let reason)
                    where waitsForNewestFile && isNewest && (reason == JournalFile.emptyFileReason || reason == JournalFile.noTablesReason) {
                    // A writer rotating into this file has created it but not committed its
                    // schema yet: read it on a later refresh.
                    groups[index].nextFile -= 1
                    return
                }
            }
            let reader = groups[index].reader!
            let page: (events: [Event], scannedThrough: UInt64?)
            do {
                // A page is up to 4 blocks and stops at the block that brings it to 8192 events:
                // 4 blocks of 2048 (older files), or one of today's 8192-event blocks.
                page = try reader.events(after: max(groups[index].lastSeq, groups[index].scannedSeq), blockLimit: 4, eventBudget: 8192)
            } catch {
                groups[index].closeReader()
                throw JournalError.wrapping(error, path: reader.path)
            }
            if let scanned = page.scannedThrough {
                groups[index].scannedSeq = max(groups[index].scannedSeq, scanned)
                groups[index].buffer = page.events
                groups[index].cursor = 0
            } else {
                if !groups[index].isReaderCovered {
                    do {
                        groups[index].coverage.merge(try reader.coverage())
                    } catch {
                        groups[index].closeReader()
                        throw JournalError.wrapping(error, path: reader.path)
                    }
                    groups[index].isReaderCovered = true
                }
                // Keep the newest file open: a live writer may still add to it.
                if groups[index].nextFile >= groups[index].files!.count { return }
                groups[index].closeReader()
            }
        }
    }

    /// Looks for files added since the iterator listed its sources and for new commits;
    /// returns whether anything may have changed.
    mutating func refresh() -> Bool {
        var changed = false
        for index in groups.indices {
            if let reader = groups[index].reader, reader.hasChanged() { changed = true }
            guard let known = groups[index].files else { changed = true; continue }
            // A newest file not ready when last tried (``waitsForNewestFile``): try it again.
            if groups[index].reader == nil, groups[index].nextFile < known.count { changed = true }
            let current = groups[index].source.listFiles()
            let added = current.filter { !known.contains($0) && $0 > (known.last ?? "") }
            if !added.isEmpty {
                groups[index].files = known + added
                changed = true
            }
        }
        return changed
    }

    /// The position after the last event returned.
    var position: UInt64 { groups.map(\.lastSeq).max() ?? 0 }

    private struct GroupState {
        let source: JournalSource
        var lastSeq: UInt64
        /// The last seq of the blocks already read (matching or not).
        var scannedSeq: UInt64 = 0
        var files: [String]?
        var nextFile = 0
        var reader: JournalFileReader?
        /// What the files read to their end hold and account for.
        var coverage = SeqCoverage()
        /// Whether `reader`'s file was read to its end and its coverage taken.
        var isReaderCovered = false
        /// The page read last, in seq order; `cursor` is the next one to hand out.
        var buffer: [Event] = []
        var cursor = 0

        init(source: JournalSource, lastSeq: UInt64) {
            self.source = source
            self.lastSeq = lastSeq
        }

        var headSeq: UInt64? { cursor < buffer.count ? buffer[cursor].seq : nil }

        mutating func take() -> Event {
            let event = buffer[cursor]
            cursor += 1
            lastSeq = event.seq
            if cursor == buffer.count {
                buffer.removeAll(keepingCapacity: true)
                cursor = 0
            }
            return event
        }

        /// Hands out what is left of the page; nil when nothing is.
        mutating func takeAll() -> [Event]? {
            guard cursor < buffer.count else { return nil }
            var page: [Event] = []
            swap(&page, &buffer)
            if cursor > 0 { page.removeFirst(cursor) }
            cursor = 0
            lastSeq = page.last!.seq
            return page
        }

        mutating func closeReader() {
            reader?.close()
            reader = nil
            isReaderCovered = false
        }
    }
}
