import Foundation
import NavlogEvents
import NavlogJournal

/// `navlog show`: prints journal events, filtered, like journalctl.
struct ShowCommand: ParsableCommand {
    static let spec = CommandSpec(
        name: "show",
        abstract: "Print the events of journals, filtered by run, session, kind and time.",
        discussion: """
            Each text line starts with the session as RUN/SESSION: every run numbers its sessions \
            from s-1. View-model changes print as -/+ lines of the fields that changed.
            """,
        arguments: [EventQuery.argument],
        options: EventQuery.specs
    )

    let query: EventQuery

    init(_ arguments: ParsedArguments) throws {
        query = try EventQuery(arguments)
    }

    func run() async throws -> Int32 {
        var output = BufferedOutput()
        var iterator = JournalReader(paths: query.paths).events(matching: query.filter)
        var last: Event?
        do {
            while let event = try iterator.next() {
                query.write(event, to: &output)
                last = event
            }
        } catch {
            output.flush()
            throw EventQuery.failure(error)
        }
        output.flush()
        if query.showsCursor, let last { Output.standardError("-- cursor: \(JournalCursor(after: last))\n") }
        return GapWarnings.report(iterator.gaps, command: "navlog show")
    }
}

/// `navlog tail`: the last events, and with -f the new ones as they are committed.
struct TailCommand: ParsableCommand {
    static let spec = CommandSpec(
        name: "tail",
        abstract: "Print the last events of journals; with -f, keep printing new ones.",
        arguments: [EventQuery.argument],
        options: EventQuery.specs + [
            .value("lines", short: "n", "N", help: "How many of the last events to print first.", in: 0...10_000_000, default: "10"),
            .flag("follow", short: "f", help: "Keep printing events as writers commit them, until interrupted."),
        ]
    )

    let query: EventQuery
    let count: Int
    let follows: Bool

    init(_ arguments: ParsedArguments) throws {
        query = try EventQuery(arguments)
        count = try arguments.integer("lines") ?? 10
        follows = arguments.flag("follow")
    }

    func run() async throws -> Int32 {
        var output = BufferedOutput()
        var recent: [Event] = []
        recent.reserveCapacity(count + 1)
        var last: Event?
        var iterator = JournalReader(paths: query.paths).events(matching: query.filter)
        // Following, a file a writer is creating right now is left to the follow below, which
        // waits for it; refusing it as empty ended `tail -f` when a writer started just then.
        iterator.waitsForNewestFile = follows
        do {
            while let event = try iterator.next() {
                last = event
                guard count > 0 else { continue }
                recent.append(event)
                if recent.count > 2 * count { recent.removeFirst(recent.count - count) }
            }
        } catch {
            throw EventQuery.failure(error)
        }
        for event in recent.suffix(count) { query.write(event, to: &output) }
        output.flush()
        let gapStatus = GapWarnings.report(iterator.gaps, command: "navlog tail")
        guard follows else { return gapStatus }
        var filter = query.filter
        if let last { filter.after = JournalCursor(after: last) }
        do {
            for try await event in JournalReader(paths: query.paths).follow(matching: filter) {
                query.write(event, to: &output)
                output.flush()
            }
        } catch {
            throw EventQuery.failure(error)
        }
        return ExitCode.success
    }
}
