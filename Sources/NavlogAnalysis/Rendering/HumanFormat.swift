/// Formats numbers for people reading the HTML report: counts with thousands separators and
/// durations in the unit that suits them (`850 ms`, `1.2 s`, `3.5 min`).
///
/// The text, Markdown and JSON outputs keep their plain numbers; only HTML uses these.
enum HumanFormat {
    /// Returns `count` with a comma every three digits, as in `17,418`.
    static func count(_ count: Int) -> String {
        let digits = String(count.magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped += "," }
            grouped.append(digit)
        }
        return (count < 0 ? "-" : "") + grouped
    }

    /// Returns a duration given in milliseconds in ms, s, min, h or d; `–` for none.
    ///
    /// Three significant figures at most: `2.5 ms`, `850 ms`, `1.2 s`, `23.5 s`, `3.2 min`.
    static func duration(milliseconds: Double?) -> String {
        guard let value = milliseconds, value.isFinite else { return "–" }
        let units: [(limit: Double, divisor: Double, name: String)] = [
            (1_000, 1, "ms"), (60_000, 1_000, "s"), (3_600_000, 60_000, "min"), (86_400_000, 3_600_000, "h"),
        ]
        for unit in units where value.magnitude < unit.limit {
            return scaled(value / unit.divisor) + " " + unit.name
        }
        return scaled(value / 86_400_000) + " d"
    }

    /// One decimal below 100, none above, trailing zeros dropped.
    private static func scaled(_ value: Double) -> String {
        value.magnitude >= 100 ? count(Int(value.rounded())) : ReportSection.decimal(value, places: 1)
    }

    /// Returns an inclusive range of milliseconds, such as `1.3–2.3 s`, in the unit of its top.
    static func durationRange(low: Double, high: Double) -> String {
        let top = duration(milliseconds: high)
        guard let space = top.lastIndex(of: " ") else { return top }
        let unit = String(top[top.index(after: space)...])
        let divisors: [String: Double] = ["ms": 1, "s": 1_000, "min": 60_000, "h": 3_600_000, "d": 86_400_000]
        let divisor = divisors[unit] ?? 1
        return scaled(low / divisor) + "–" + top
    }

    /// Returns a funnel's or a screen's time summary: median, its 95% interval, p90 and n.
    static func durationLine(_ summary: DurationSummary) -> String {
        guard summary.count > 0 else { return "no conversions" }
        var line = "median \(duration(milliseconds: summary.medianMilliseconds))"
        if let low = summary.ci95LowMilliseconds, let high = summary.ci95HighMilliseconds {
            line += " (95% CI \(durationRange(low: low, high: high)))"
        }
        return line + ", p90 \(duration(milliseconds: summary.p90Milliseconds)), n \(count(summary.count))"
    }
}
