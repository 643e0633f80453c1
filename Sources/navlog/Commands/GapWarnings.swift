import NavlogJournal

/// Seqs missing from the journals a command read, with no `journal.dropped` record that
/// accounts for them (rows deleted, a file taken from the middle of a directory): one warning
/// line each on stderr, naming the file and the seqs, and exit 1 (a finding). The output is
/// produced all the same, from the events that are there.
enum GapWarnings {
    /// The most gaps printed one to a line; the rest are counted on one more.
    static let shownLimit = 10

    /// Prints `gaps` as warnings of `command` (such as `navlog show`); returns the exit code:
    /// a finding when there is any, else success.
    static func report(_ gaps: [JournalGap], command: String) -> Int32 {
        guard !gaps.isEmpty else { return ExitCode.success }
        var lines = gaps.prefix(shownLimit).map { "\(command): warning: \($0)" }
        if gaps.count > shownLimit {
            lines.append("\(command): warning: \(gaps.count - shownLimit) more gaps; 'navlog verify' lists them all")
        }
        Output.standardError(lines.joined(separator: "\n") + "\n")
        return ExitCode.finding
    }
}
