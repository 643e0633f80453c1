import Foundation

/// A one-line progress display on stderr, such as `exporting: 120000 of 500000 events (24%)`, redrawn a
/// few times a second and erased by ``clear()``, shared by `report`, `explore` and `export`.
///
/// It is shown only when stderr is a terminal whose `TERM` is not `dumb`, so nothing of it
/// reaches a pipe or a file. `NO_COLOR` does not turn it off: it asks for no colour, and the
/// line has none.
///
/// ```swift
/// var progress = ProgressLine()
/// for event in events {
///     progress.update { "exporting: \(count) events" }
/// }
/// progress.clear()
/// ```
struct ProgressLine {
    /// Whether anything is drawn at all.
    let isShown: Bool
    /// Nanoseconds between redraws.
    let interval: UInt64
    private var lastDraw: UInt64 = 0
    private var calls = 0
    private var hasDrawn = false

    /// Whether stderr is a terminal that can redraw a line.
    static var isAvailable: Bool {
        isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }

    /// Shows progress when `isShown`, redrawn every `interval` milliseconds (default 200, or
    /// `NAVLOG_PROGRESS_INTERVAL_MS`, which tests set to 0 to see it on a short run).
    init(isShown: Bool = ProgressLine.isAvailable, intervalMilliseconds: UInt64? = nil) {
        self.isShown = isShown
        let configured = ProcessInfo.processInfo.environment["NAVLOG_PROGRESS_INTERVAL_MS"].flatMap(UInt64.init)
        interval = (intervalMilliseconds ?? configured ?? 200) * 1_000_000
        lastDraw = ProgressLine.now()
    }

    /// Redraws the line with `text()` when ``interval`` has passed since the last draw. Cheap
    /// enough to call per event: the clock is read once in 256 calls, and `text` only on a draw.
    mutating func update(_ text: () -> String) {
        guard isShown else { return }
        calls &+= 1
        guard calls & 255 == 0 else { return }
        draw(text)
    }

    /// Like ``update(_:)`` but reads the clock on every call, for callers that call it seldom
    /// (once per session, once per file).
    mutating func updateNow(_ text: () -> String) {
        guard isShown else { return }
        draw(text)
    }

    /// `count` events, with the total and how far that is when the total is known:
    /// `120000 of 500000 events (24%)`, else `120000 events`.
    static func events(_ count: Int, of total: Int?) -> String {
        guard let total, total > 0 else { return "\(count) events" }
        return "\(count) of \(total) events (\(min(100, count * 100 / total))%)"
    }

    /// Erases the line, if one was drawn.
    mutating func clear() {
        if hasDrawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        hasDrawn = false
    }

    private mutating func draw(_ text: () -> String) {
        let now = ProgressLine.now()
        guard now &- lastDraw >= interval else { return }
        lastDraw = now
        FileHandle.standardError.write(Data("\r\u{1B}[K\(text())".utf8))
        hasDrawn = true
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
