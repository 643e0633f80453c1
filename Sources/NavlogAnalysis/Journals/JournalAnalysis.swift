import NavlogEvents
import NavlogJournal

/// A figure read from journals, with the seqs found missing from them on the way.
public struct JournalAnalysis<Value> {
    /// The report, or the side of a diff.
    public var value: Value
    /// Seqs missing from the files read, with no `journal.dropped` record to account for them
    /// (rows deleted, a file taken from the middle of a directory). The value is built from the
    /// events that are there; a caller such as `navlog` warns about each gap.
    public var gaps: [JournalGap]
}

/// How far reading journals has come, for a progress line.
public struct JournalReadProgress: Sendable {
    /// The file being read, and its place among the files.
    public var file: String
    public var fileIndex: Int
    public var fileCount: Int
    /// Events handed over so far.
    public var eventCount: Int
    /// How many events the files hold, when every one of them is read (no session or run
    /// filter); nil otherwise.
    public var totalEvents: Int?
}

extension FlowReport {
    /// Reads journal files and directories as a stream and reports on them: what
    /// `navlog report` does.
    ///
    /// ```swift
    /// let analysis = try FlowReport.read(journals: ["journals/"], options: ReportOptions())
    /// print(analysis.value.rendered(as: .text, width: 100))
    /// ```
    ///
    /// View-model snapshots are read as digests and actions as their envelope: the report only
    /// tells snapshots apart and counts actions, and reading less costs less. Throws the
    /// journal's error, which names the file, when one cannot be read. `progress`, when given,
    /// hears after each page how far reading has come, out of how many events the files hold
    /// when no session or run filter leaves some out.
    public static func read(
        journals paths: [String], options: ReportOptions = ReportOptions(), progress: ((JournalReadProgress) -> Void)? = nil
    ) throws -> JournalAnalysis<FlowReport> {
        var builder = ReportBuilder(options: options, snapshots: .digests, foldsInBackground: true)
        var filter = EventFilter()
        filter.digestedMembers = ReportBuilder.digestibleMembers
        filter.envelopeOnlyKinds = ReportBuilder.envelopeOnlyKinds
        if !options.sessions.isEmpty || !options.runSessions.isEmpty {
            filter.sessions = options.sessions.isEmpty ? nil : options.sessions
            filter.runSessions = options.runSessions.isEmpty ? nil : options.runSessions
        }
        if !options.runs.isEmpty { filter.runs = options.runs }
        let gaps = try JournalAnalysisReading.readInterned(paths, filter: filter, into: &builder, progress: progress)
        return JournalAnalysis(value: builder.finish(), gaps: gaps)
    }
}

extension ReportBuilder {
    /// Reads a page of a journal's events as ``InternedEvent``s, whose names and sessions the
    /// pages before and this one's ``JournalPrefetcher/InternedPage/newNames`` and
    /// ``JournalPrefetcher/InternedPage/newSessions`` give. The builder must read no `Event`.
    mutating func consume(_ page: JournalPrefetcher.InternedPage) {
        if page.fileIndex != sessionFile {
            // Each file numbers its sessions afresh.
            sessionFile = page.fileIndex
            sessionsOfFile.removeAll(keepingCapacity: true)
            startSessionIDs()
        }
        names.table.append(page.newNames)
        for session in page.newSessions { sessionsOfFile.append(SessionKey(run: session.run, session: session.session)) }
        // Lent in place: reading `events[index]` into an argument copied the event, retaining
        // and releasing its lists and payload. Nothing writes through the pointer.
        func lend(_ event: inout InternedEvent) { consume(event, keys: .file) }
        // The events point into the page's storage, kept until the last is read.
        withExtendedLifetime(page.storage) {
            page.events.withUnsafeBufferPointer { events in
                guard let base = events.baseAddress else { return }
                for index in events.indices { lend(&UnsafeMutablePointer(mutating: base + index).pointee) }
            }
        }
    }
}

extension DiffSide {
    /// Reads journal files and directories as a stream into one side of a diff: what
    /// `navlog diff` and `navlog baseline save` do with journals.
    public static func read(journals paths: [String], settings: DiffSettings) throws -> JournalAnalysis<DiffSide> {
        var collector = DiffSideCollector(settings: settings)
        let gaps = try JournalAnalysisReading.read(paths, filter: EventFilter(), into: &collector, progress: nil)
        return JournalAnalysis(value: collector.finish(), gaps: gaps)
    }
}

/// What takes a journal's runs, then its events in order.
protocol JournalConsuming {
    mutating func addRun(id: String, labels: [String: String])
    mutating func consume(_ event: Event)
}

extension ReportBuilder: JournalConsuming {}
extension DiffSideCollector: JournalConsuming {}

/// The loops that read journals into a report or a diff side.
enum JournalAnalysisReading {
    /// Hands `builder` the runs of `paths`, then their events matching `filter` as
    /// ``InternedEvent``s, read on a thread of their own; returns the gaps found.
    static func readInterned(_ paths: [String], filter: EventFilter, into builder: inout ReportBuilder,
                             progress: ((JournalReadProgress) -> Void)?) throws -> [JournalGap] {
        let reader = JournalReader(paths: paths)
        let fileCount = reader.files().count
        for run in try reader.runs() { builder.addRun(id: run.id, labels: run.labels) }
        let total = progress != nil && filter.keepsEveryEvent ? reader.storedEventCount() : nil
        // Two pages ahead: an interned page holds up to 16,384 events, twice an `Event` page.
        let pages = JournalPrefetcher(interning: reader, filter: filter, depth: 2)
        var count = 0
        while let page = try pages.nextInterned() {
            builder.consume(page)
            count += page.events.count
            progress?(JournalReadProgress(file: page.file, fileIndex: page.fileIndex, fileCount: fileCount, eventCount: count, totalEvents: total))
        }
        return pages.gaps
    }

    /// Hands `consumer` the runs of `paths`, then their events matching `filter`; returns the
    /// gaps found.
    ///
    /// Files of one directory hold increasing seqs, so reading them one by one keeps each
    /// session in order, and lets progress name the file. They are read on a thread of their
    /// own (``JournalPrefetcher``) while the consumer works on the page before.
    static func read<Consumer: JournalConsuming>(
        _ paths: [String], filter: EventFilter, into consumer: inout Consumer, progress: ((JournalReadProgress) -> Void)?
    ) throws -> [JournalGap] {
        let reader = JournalReader(paths: paths)
        let fileCount = reader.files().count
        for run in try reader.runs() { consumer.addRun(id: run.id, labels: run.labels) }
        // The total costs a look at every file's block rows: only for a caller that shows progress.
        let total = progress != nil && filter.keepsEveryEvent ? reader.storedEventCount() : nil
        let pages = JournalPrefetcher(reader: reader, filter: filter)
        var count = 0
        try pages.forEach { page in
            page.forEachEvent { consumer.consume($0); count += 1 }
            progress?(JournalReadProgress(file: page.file, fileIndex: page.fileIndex, fileCount: fileCount, eventCount: count, totalEvents: total))
        }
        return pages.gaps
    }
}
