/// Formats events as text for people: one line per event, and for a view-model change the
/// fields that changed as `-`/`+` lines.
///
/// ```
/// s-1     12  2026-12-01T10:00:00.124Z  screen.push       DetailCoordinator#1  [Detail#1]  ←11  depth=2 stack=NavigationStack#1
/// s-1     13  2026-12-01T10:00:00.124Z  viewmodel.change  DetailPresenter#1  [Detail#1]  ←11  DetailViewModel
///         - title: "Loading…"
///         + title: "Coordinators"
///
/// The number is the event's place in its session (`session_seq`), which is what the cause
/// after the arrow refers to.
/// ```
///
/// With ``showsRun``, the first column is the session's run and name, `RUN/SESSION`, padded to
/// 24 characters, which tells apart the `s-1` of every run in a journal directory:
///
/// ```
/// r-mx6bnfsd-29k4bg/s-1        12  2026-12-01T10:00:00.124Z  screen.push             DetailCoordinator#1  …
/// ```
///
/// Times carry their date and zone: UTC as `Z`, or with ``timeZone`` another offset, such as
/// `2026-12-01T11:00:00.124+01:00`.
public struct EventTextFormatter: Sendable {
    /// Whether to print the wall-clock time of day.
    public var showsTime: Bool
    /// Whether to print the session column.
    public var showsSession: Bool
    /// Whether the session column shows the run too, as `RUN/SESSION`.
    public var showsRun: Bool
    /// The seconds east of UTC of the zone times are shown in, at a time in ns since 1970;
    /// nil shows UTC.
    public var timeZone: (@Sendable (Int64) -> Int)?

    public init(showsTime: Bool = true, showsSession: Bool = true, showsRun: Bool = false, timeZone: (@Sendable (Int64) -> Int)? = nil) {
        self.showsTime = showsTime
        self.showsSession = showsSession
        self.showsRun = showsRun
        self.timeZone = timeZone
    }

    /// The time of `wallNanoseconds` as text shows it: date, time to the millisecond and zone,
    /// `2026-12-01T10:00:00.124Z` or `2026-12-01T11:00:00.124+01:00`.
    public func formatTime(_ wallNanoseconds: Int64) -> String {
        let offset = timeZone?(wallNanoseconds) ?? 0
        let local = Event.formatTime(wallNanoseconds &+ Int64(offset) * 1_000_000_000, fractionDigits: 3)
        guard offset != 0 else { return local }
        let minutes = abs(offset) / 60
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let zone = (offset < 0 ? "-" : "+") + twoDigits(minutes / 60) + ":" + twoDigits(minutes % 60)
        return String(local.dropLast()) + zone
    }

    /// Returns the text form of `event`, possibly several lines, without a trailing newline.
    public func format(_ event: Event) -> String {
        // Events are numbered within their session, the numbering causes refer to.
        var columns: [String] = []
        if showsSession { columns.append(showsRun ? pad("\(event.run)/\(event.session)", 24) : event.session) }
        columns.append(pad(String(event.sessionSeq), 5, right: true))
        if showsTime { columns.append(formatTime(event.wallNanoseconds)) }
        columns.append(pad(event.kind.rawValue, 22))
        columns.append(event.subject)
        if let screen = event.screen, screen != event.subject { columns.append("[\(screen)]") }
        if let cause = event.cause { columns.append("←\(cause)") }
        if let parent = event.parent { columns.append("parent=\(parent)") }
        let summary = summarize(event)
        if !summary.isEmpty { columns.append(summary) }
        var lines = [columns.joined(separator: "  ")]
        if event.kind == .viewModelChange {
            lines += diffLines(event.payload).map { "        " + $0 }
        }
        return lines.joined(separator: "\n")
    }

    /// Returns the `-`/`+` lines of a view-model change payload, one pair per changed field.
    public func diffLines(_ payload: JSONValue) -> [String] {
        let changed = payload["changed"]?.arrayValue?.compactMap(\.stringValue) ?? []
        var lines: [String] = []
        for field in changed {
            if let old = payload["previous"]?[field] { lines.append("- \(field): \(old.serialized())") }
            if let new = payload["snapshot"]?[field] { lines.append("+ \(field): \(new.serialized())") }
        }
        return lines
    }

    private func summarize(_ event: Event) -> String {
        guard case .object(let members) = event.payload else { return event.payload.serialized() }
        switch event.kind {
        case .viewModelChange:
            return members["viewmodel"]?.stringValue ?? ""
        case .presenterInit:
            return members["viewmodel"]?.stringValue ?? ""
        case .error:
            return [members["code"]?.stringValue, members["message"]?.stringValue].compactMap { $0 }.joined(separator: ": ")
        default:
            return members.keys.sorted().filter { $0 != "snapshot" }.map { key in
                let value = members[key]!
                return "\(key)=\(value.stringValue ?? value.serialized())"
            }.joined(separator: " ")
        }
    }

    private func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        guard text.count < width else { return text }
        let fill = String(repeating: " ", count: width - text.count)
        return right ? fill + text : text + fill
    }
}
