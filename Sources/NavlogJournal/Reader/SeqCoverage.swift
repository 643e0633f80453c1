import NavlogEvents

/// Seqs missing from a journal that no `journal.dropped` record accounts for: events were
/// lost (rows deleted, a file removed from the middle of a directory) without the writer
/// knowing.
public struct JournalGap: Sendable, Equatable, CustomStringConvertible {
    /// The file the missing seqs belong in: the one whose seqs they fall among (the file
    /// before them when they fall between two files).
    public var file: String
    public var seqs: ClosedRange<UInt64>

    public var description: String {
        let count = seqs.upperBound - seqs.lowerBound + 1
        return "\(file): seq \(seqs.lowerBound)...\(seqs.upperBound) (\(count) event\(count == 1 ? "" : "s")) "
            + "missing, and no journal.dropped record accounts for them"
    }
}

/// Which seqs the files of one writer's journal hold, which they say they hold, and which
/// seqs `journal.dropped` records account for. From the lowest to the highest seq held or
/// declared, what is neither held nor accounted for is a gap.
///
/// Seqs are continuous within a directory (one writer, one lock), so the coverage of the
/// files of one directory (or of one file read alone) is merged, and files read from
/// different paths are never compared. A file declares its first seq (`meta.first_seq`,
/// where its first event is unless a `journal.dropped` record says otherwise) and, once
/// closed cleanly, its last (`meta.last_seq`); so blocks missing at either end of a file are
/// found too, not only between blocks.
struct SeqCoverage {
    private var present: [ClosedRange<UInt64>] = []
    private var accounted: [ClosedRange<UInt64>] = []
    /// Seqs the files say they hold.
    private var declared: [ClosedRange<UInt64>] = []
    /// The first seq of each file, to name the file a gap falls in.
    private var fileStarts: [(seq: UInt64, path: String)] = []

    /// Notes a file: `firstSeq` from its `meta.first_seq`; `closedLastSeq`, its
    /// `meta.last_seq` when it was closed cleanly; `hasEvents`, whether it has blocks.
    mutating func addFile(_ path: String, firstSeq: UInt64, closedLastSeq: UInt64?, hasEvents: Bool) {
        fileStarts.append((firstSeq, path))
        if let last = closedLastSeq, last >= firstSeq {
            declared.append(firstSeq...last)
        } else if hasEvents {
            declared.append(firstSeq...firstSeq)
        }
    }

    /// Notes `file`, reading its `meta`; `lowestSeq` is the lowest seq of its blocks (its
    /// start when `meta.first_seq` is missing), nil when it has none.
    mutating func addFile(_ file: JournalFile, lowestSeq: UInt64?) throws {
        guard let first = try file.meta("first_seq").flatMap({ UInt64($0) }) ?? lowestSeq else { return }
        let last = try file.isClosedCleanly() ? try file.meta("last_seq").flatMap { UInt64($0) } : nil
        addFile(file.path, firstSeq: first, closedLastSeq: last, hasEvents: lowestSeq != nil)
    }

    /// Adds seqs present, in increasing order, as runs of consecutive values.
    mutating func addPresent<Seqs: Sequence<UInt64>>(seqs: Seqs) {
        var run: ClosedRange<UInt64>?
        for seq in seqs {
            if let current = run, current.upperBound < UInt64.max, current.upperBound + 1 == seq {
                run = current.lowerBound...seq
            } else {
                if let current = run { present.append(current) }
                run = seq...seq
            }
        }
        if let run { present.append(run) }
    }

    /// Adds a run of seqs present.
    mutating func addPresent(_ range: ClosedRange<UInt64>) {
        present.append(range)
    }

    /// Adds seqs a `journal.dropped` record accounts for, or that are known otherwise (a
    /// damaged block, reported on its own).
    mutating func addAccounted(_ range: ClosedRange<UInt64>) {
        accounted.append(range)
    }

    /// Adds the range the payload of a `journal.dropped` record names, if it names one.
    mutating func addAccounted(droppedRecord payload: JSONValue) {
        if let range = JournalWriter.droppedSeqs(inRecord: payload) { accounted.append(range) }
    }

    /// Adds everything `other` covers (another file of the same journal).
    mutating func merge(_ other: SeqCoverage) {
        present += other.present
        accounted += other.accounted
        declared += other.declared
        fileStarts += other.fileStarts
    }

    /// The runs of seqs from the lowest to the highest held or declared that are neither held
    /// nor accounted for, each named after its file; with `after`, only seqs above it.
    func gaps(after: UInt64 = 0) -> [JournalGap] {
        let span = present + declared
        guard let low = span.map(\.lowerBound).min(), let high = span.map(\.upperBound).max() else { return [] }
        let starts = fileStarts.sorted { ($0.seq, $0.path) < ($1.seq, $1.path) }
        var gaps: [JournalGap] = []
        func missing(_ seqs: ClosedRange<UInt64>) {
            guard seqs.upperBound > after else { return }
            let clipped = max(seqs.lowerBound, after + 1)...seqs.upperBound
            let file = starts.last { $0.seq <= clipped.lowerBound }?.path ?? starts.first?.path ?? ""
            gaps.append(JournalGap(file: file, seqs: clipped))
        }
        // The first seq not yet known to be covered; nil once everything up to `high` is.
        var next: UInt64? = low
        for range in (present + accounted).sorted(by: { $0.lowerBound < $1.lowerBound }) {
            guard let first = next, range.upperBound >= first else { continue }
            if range.lowerBound > first { missing(first...min(range.lowerBound - 1, high)) }
            next = range.upperBound < high ? range.upperBound + 1 : nil
        }
        if let first = next, first <= high { missing(first...high) }
        return gaps
    }
}
