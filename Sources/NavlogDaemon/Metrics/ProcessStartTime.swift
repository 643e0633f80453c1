import Foundation

/// When this process started, as Prometheus's `process_start_time_seconds` gives it.
///
/// Linux keeps it in [`/proc/self/stat`](https://man7.org/linux/man-pages/man5/proc_pid_stat.5.html)
/// field 22, `starttime`, in clock ticks since boot, and the boot time in `/proc/stat`'s `btime`
/// line, in seconds since the epoch: the start is `btime + starttime / ticks per second`, to the
/// second of `btime`.
enum ProcessStartTime {
    /// Returns the start of this process in seconds since the epoch, or nil when `/proc` cannot
    /// be read.
    static func secondsSinceEpoch() -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let system = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) else { return nil }
        return secondsSinceEpoch(processStat: stat, systemStat: system, ticksPerSecond: Double(sysconf(Int32(_SC_CLK_TCK))))
    }

    /// Returns the start from the texts of `/proc/self/stat` and `/proc/stat`, or nil when they
    /// do not hold it.
    static func secondsSinceEpoch(processStat: String, systemStat: String, ticksPerSecond: Double) -> Double? {
        // The command name (field 2) is in parentheses and may hold spaces and parentheses: the
        // fields after it start after its last ')'. Field 3 is the first of those.
        guard ticksPerSecond > 0, let close = processStat.lastIndex(of: ")") else { return nil }
        let fields = processStat[processStat.index(after: close)...].split(separator: " ")
        let startTimeIndex = 22 - 3
        guard fields.count > startTimeIndex, let ticks = Double(fields[startTimeIndex]) else { return nil }
        guard let line = systemStat.split(separator: "\n").first(where: { $0.hasPrefix("btime ") }),
              let bootSeconds = Double(line.dropFirst("btime ".count).trimmingCharacters(in: .whitespaces)) else { return nil }
        return bootSeconds + ticks / ticksPerSecond
    }
}
